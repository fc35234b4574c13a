import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { openSigningSecret, secretBoxOf } from '../../src/webhooks/sealed-secrets.js';
import { givenConfiguration } from '../partner/webhooks/support.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { formIdFor, givenUser, type SignedIn, signIn } from './support.js';
import { formIdFieldOn, postForm, refusalsOf, textOf, WEBHOOKS, webhookState } from './webhook-support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/** The secret a panel page shows. */
const shownSecret = (page: string) => /<code id="segredo"[^>]*>(whsec_[A-Za-z0-9+/=]+)<\/code>/.exec(page)?.[1];

describe('panel › Webhooks: the signing secret', () => {
  const t = useTestContext();
  let partner: Partner;
  let superadmin: SignedIn;

  /** The secrets stored (sealed at rest), opened. */
  const stored = async (id: string) => {
    const [row] = await t.ctx.sql<
      { signing_secret: string | null; previous_signing_secret: string | null; expires: string | null }[]
    >`
      select signing_secret, previous_signing_secret,
        to_char(previous_secret_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as expires
      from webhook_configurations where id = ${id}`;
    const box = secretBoxOf(t.ctx.config);
    return {
      secret: openSigningSecret(box, row!.signing_secret),
      previous: openSigningSecret(box, row!.previous_signing_secret),
      previousExpiresAt: row!.expires,
    };
  };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Aroeira');
    await givenUser(t, partner.id, 'ana@aroeira.example', 'superadmin');
    superadmin = await signIn(t, 'ana@aroeira.example');
  });

  it('no page shows the secret until it is revealed by a POST, which answers the secret in force', async () => {
    const created = await givenConfiguration(t, partner.headers, 'https://erp.aroeira.example/h', { signed: true });
    expect(created.signingSecret).toMatch(/^whsec_/);
    for (const path of ['', '/assinatura', '/editar']) {
      const page = await superadmin.agent.get(`${WEBHOOKS}/${created.id}${path}`).expect(200);
      expect(page.text, path).not.toMatch(/whsec_\w/);
    }
    const revealed = await postForm(superadmin, `${WEBHOOKS}/${created.id}/assinatura/revelar`).expect(200);
    expect(shownSecret(revealed.text)).toBe(created.signingSecret);
    expect(revealed.headers['cache-control']).toBe('no-store');
  });

  it('rotating shows the new secret once; the previous one keeps signing for the grace period chosen, as the API rotates', async () => {
    const created = await givenConfiguration(t, partner.headers, 'https://erp.aroeira.example/h', { signed: true });
    const rotation = async (grace: string) => {
      const page = `${WEBHOOKS}/${created.id}/assinatura`;
      const form = await formIdFieldOn(superadmin, page, `${page}/trocar`);
      return postForm(superadmin, `${page}/trocar`, [['gracePeriodSeconds', grace], form]).expect(200);
    };
    const rotated = await rotation('3600');
    const secret = shownSecret(rotated.text);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.signingSecret);
    expect(rotated.text).toContain('Segredo trocado: o novo já assina as entregas.');
    expect(textOf(rotated.text)).toContain('O segredo anterior também assina as entregas até 15/01/2026 10:00.');
    expect(await stored(created.id)).toEqual({
      secret,
      previous: created.signingSecret,
      previousExpiresAt: '2026-01-15T13:00:00Z',
    });
    const list = await request(t.app).get('/webhooks').set(partner.headers).expect(200);
    expect(list.body.content.find((c: { id: string }) => c.id === created.id).previousSecretExpiresAt).toBe(
      '2026-01-15T13:00:00.000Z',
    );

    await rotation('0');
    expect(await stored(created.id)).toMatchObject({ previous: null, previousExpiresAt: null });
  });

  it('a grace period the API refuses is refused beside its field, and nothing changes', async () => {
    const created = await givenConfiguration(t, partner.headers, 'https://erp.aroeira.example/h', { signed: true });
    const before = await webhookState(t);
    for (const value of ['604801', '-1', '1.5', 'um dia', '']) {
      const res = await postForm(superadmin, `${WEBHOOKS}/${created.id}/assinatura/trocar`, [
        ['gracePeriodSeconds', value],
      ]).expect(400);
      expect(refusalsOf(res.text), value).toEqual({
        gracePeriodSeconds: 'Escolha um dos prazos da lista. (VALIDATION-001)',
      });
      expect(res.text).not.toMatch(/whsec_\w/);
    }
    expect(await webhookState(t)).toBe(before);
  });

  it('a configuration that does not sign explains how to start, and refuses reveal and rotation with WEBHOOK-011', async () => {
    const created = await givenConfiguration(t, partner.headers, 'https://erp.aroeira.example/h');
    const page = await superadmin.agent.get(`${WEBHOOKS}/${created.id}/assinatura`).expect(200);
    expect(textOf(page.text)).toContain('Este webhook não assina as entregas.');
    const before = await webhookState(t);
    // The page offers no rotation: the form id stands for a page shown while it signed.
    const formId = await formIdFor(t, 'ana@aroeira.example', { kind: 'secret-rotation', subject: created.id });
    for (const path of ['revelar', 'trocar']) {
      const res = await postForm(superadmin, `${WEBHOOKS}/${created.id}/assinatura/${path}`, [
        ['gracePeriodSeconds', '0'],
        ['_form', formId],
      ]).expect(400);
      expect(textOf(res.text)).toContain(
        'Este webhook não assina as entregas: ative a assinatura em Editar. (WEBHOOK-011)',
      );
    }
    expect(await webhookState(t)).toBe(before);
  });
});
