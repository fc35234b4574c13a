import type { Request } from 'express';

import { checkRequestBody } from '../../contract/request-bodies.js';
import { INSTITUTION_WEBHOOKS } from '../../institution/events/vocabulary.js';
import { institutionCatalogue, institutionSamples } from '../../institution/webhooks/samples.js';
import { webhookEventCatalogue } from '../../partner/webhooks/catalogue.js';
import { PARTNER_WEBHOOKS, type WebhookEventName } from '../../partner/webhooks/events.js';
import { fictionalPayload } from '../../partner/webhooks/test-events.js';
import type { ConfigurationInput, ConfigurationPatch } from '../../webhooks/configurations.js';
import type { SamplePayload } from '../../webhooks/test-deliveries.js';
import type { Audience } from '../../webhooks/vocabulary.js';
import { sessionOf } from '../session.js';

/**
 * The webhooks of the signed-in user's tenant as the pages handle them: the engine's audience, and
 * what differs between a partner (Partner API) and a university (Institution API): each form is
 * checked against the contract of the tenant's own API, so every refusal is that API's.
 */
export interface TenantWebhooks {
  audience: Audience;
  /** The events of the tenant's API, in the order of its documentation. */
  events: readonly string[];
  checkCreate(input: ConfigurationInput): Promise<void>;
  checkPatch(patch: ConfigurationPatch): Promise<void>;
  checkRotation(gracePeriodSeconds: unknown): Promise<void>;
  /** Fictional payloads for test deliveries. */
  samples(): Promise<SamplePayload>;
  /** Each event with its example payload, as indented JSON, from the API's document. */
  catalogue(): Promise<{ name: string; example: string }[]>;
  words: { owner: string; holder: string; subject: string; docs: string; docsLabel: string };
}

/** The token as a body carries it: absent unless set, null to remove it. */
const tokenOf = <K extends string>(key: K, token: string | null | undefined) =>
  (token === undefined ? {} : { [key]: token }) as Partial<Record<K, string | null>>;

const partnerWebhooks = (id: string): TenantWebhooks => ({
  audience: { recipient: { kind: 'partner', id }, vocabulary: PARTNER_WEBHOOKS },
  events: PARTNER_WEBHOOKS.events,
  checkCreate: (i) =>
    checkRequestBody('partner', 'createWebhookConfiguration', {
      configurationName: i.name,
      webhookUrl: i.url,
      enabledEvents: i.events.map((name) => ({ name })),
      ...tokenOf('authorizationToken', i.authorizationToken),
      signed: i.signed,
    }),
  checkPatch: (p) =>
    checkRequestBody('partner', 'updateWebhookConfiguration', {
      configurationName: p.name,
      webhookUrl: p.url,
      enabledEvents: p.events?.map((name) => ({ name })),
      ...tokenOf('authorizationToken', p.authorizationToken),
      signed: p.signed,
    }),
  checkRotation: (grace) => checkRequestBody('partner', 'rotateWebhookSigningSecret', { gracePeriodSeconds: grace }),
  samples: () => Promise.resolve((event, at) => fictionalPayload(event as WebhookEventName, at)),
  catalogue: webhookEventCatalogue,
  words: {
    owner: 'da empresa',
    holder: 'A empresa',
    subject: 'os eventos das vendas',
    docs: '/docs/partner',
    docsLabel: 'documentação da Partner API',
  },
});

const institutionWebhooks = (id: string): TenantWebhooks => ({
  audience: { recipient: { kind: 'institution', id }, vocabulary: INSTITUTION_WEBHOOKS },
  events: INSTITUTION_WEBHOOKS.events,
  checkCreate: (i) =>
    checkRequestBody('institution', 'createInstitutionWebhook', {
      nome: i.name,
      url: i.url,
      eventos: i.events,
      ...tokenOf('tokenAutorizacao', i.authorizationToken),
      assinado: i.signed,
    }),
  checkPatch: (p) =>
    checkRequestBody('institution', 'updateInstitutionWebhook', {
      nome: p.name,
      url: p.url,
      eventos: p.events,
      ...tokenOf('tokenAutorizacao', p.authorizationToken),
      assinado: p.signed,
    }),
  checkRotation: (grace) =>
    checkRequestBody('institution', 'rotateInstitutionWebhookSecret', { periodoGracaSegundos: grace }),
  samples: () => institutionSamples(id),
  catalogue: institutionCatalogue,
  words: {
    owner: 'da instituição',
    holder: 'A instituição',
    subject: 'os eventos dos lotes, das parcelas e dos fechamentos',
    docs: '/docs/institution',
    docsLabel: 'documentação da Institution API',
  },
});

/** The webhooks of the tenant the signed-in user acts for. */
export function tenantWebhooks(req: Request): TenantWebhooks {
  const { tenant } = sessionOf(req).user;
  return tenant.kind === 'partner' ? partnerWebhooks(tenant.id) : institutionWebhooks(tenant.id);
}
