import type { Request, Router } from 'express';

import { parseDate } from '../../core/dates.js';
import { addDays, startOfLocalDay } from '../../core/local-date.js';
import { pageRequest } from '../../core/paging.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { readChoices } from '../../pages/form-values.js';
import { type DeliveryFilter, findDelivery, listDeliveries, redeliver } from '../../webhooks/deliveries.js';
import { eventsOf } from '../../webhooks/event-names.js';
import { sendTestDeliveries } from '../../webhooks/test-deliveries.js';
import { sendPage } from '../layout.js';
import { oncePerForm } from '../once-per-form.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { type WebhookConfiguration, WEBHOOKS_PAGE_SIZE } from './configuration-pages.js';
import {
  deliveriesPath,
  deliveriesView,
  deliveryView,
  type LogFilter,
  redeliveryForm,
  testForm,
  testView,
} from './delivery-pages.js';
import { refusalNotice, unlessRefused } from './refusals.js';
import { tenantWebhooks } from './tenant.js';
import { DELIVERY_STATUS_LABELS } from './vocabulary.js';

const NOTICES = {
  teste: 'Entregas de teste criadas: a primeira tentativa de cada uma sai em cerca de 15 segundos.',
  reenviada: 'Reenvio criado: esta é a nova entrega, com a primeira tentativa na hora.',
};

const isStatus = (value: string): value is keyof typeof DELIVERY_STATUS_LABELS =>
  Object.hasOwn(DELIVERY_STATUS_LABELS, value);

/** A day as a date field sends it (`2026-01-15`) or as typed where the browser has none (`15/01/2026`). */
const dayOf = (value: string) => parseDate(value.replace(/^(\d{2})\/(\d{2})\/(\d{4})$/, '$3-$2-$1'));

/** The log's filters from the query, and what the service filters by; each wrong value refused by its field. */
function readFilter(
  req: Request,
  events: readonly string[],
): { filter: LogFilter; errors: FieldErrors; service: DeliveryFilter } {
  const errors: FieldErrors = {};
  const text = (name: keyof LogFilter) => {
    const value = req.query[name];
    if (value !== undefined && typeof value !== 'string') errors[name] = 'Escolha um só valor.';
    return typeof value === 'string' ? value.slice(0, 40) : '';
  };
  const filter: LogFilter = { situacao: text('situacao'), evento: text('evento'), de: text('de'), ate: text('ate') };
  const service: DeliveryFilter = {};
  if (filter.situacao) {
    if (isStatus(filter.situacao)) service.status = filter.situacao;
    else errors.situacao = 'Escolha uma situação da lista.';
  }
  if (filter.evento) {
    if (events.includes(filter.evento)) service.event = filter.evento;
    else errors.evento = 'Escolha um evento da lista.';
  }
  const from = filter.de ? dayOf(filter.de) : undefined;
  const to = filter.ate ? dayOf(filter.ate) : undefined;
  if (filter.de && !from) errors.de = 'Informe uma data válida (dd/mm/aaaa).';
  if (filter.ate && !to) errors.ate = 'Informe uma data válida (dd/mm/aaaa).';
  if (from && to && to < from) errors.ate = 'A data final não pode ser anterior à inicial.';
  if (from) service.from = startOfLocalDay(from);
  if (to) service.before = startOfLocalDay(addDays(to, 1));
  // Shown again as the date field writes it.
  return { filter: { ...filter, de: from ?? filter.de, ate: to ?? filter.ate }, errors, service };
}

/**
 * The deliveries of a configuration: the log with its filters and pages, one delivery with each
 * attempt, its redelivery, and the test with a checklist of the configuration's events.
 */
export function deliveryRoutes(
  router: Router,
  panel: PanelContext,
  configurationOf: (req: Request) => Promise<WebhookConfiguration>,
): void {
  const ctx = panel.app;
  const deliveryOf = (req: Request, c: WebhookConfiguration) =>
    findDelivery(ctx.db, tenantWebhooks(req).audience.recipient, c.id, String(req.params.deliveryId));

  router.get('/webhooks/:id/entregas', async (req, res) => {
    const c = await configurationOf(req);
    const { audience, events } = tenantWebhooks(req);
    const { filter, errors, service } = readFilter(req, events);
    if (Object.keys(errors).length > 0) return sendPage(req, res, 400, deliveriesView(c, { events, filter, errors }));
    const paging = pageRequest(req.query.page, WEBHOOKS_PAGE_SIZE);
    const page = await listDeliveries(ctx.db, audience.recipient, c.id, service, paging);
    const notice = noticeOf(NOTICES, req.query.aviso);
    sendPage(req, res, 200, deliveriesView(c, { events, filter, page, notice }));
  });

  router.get('/webhooks/:id/entregas/:deliveryId', async (req, res) => {
    const c = await configurationOf(req);
    sendPage(
      req,
      res,
      200,
      deliveryView(req, res, panel, c, await deliveryOf(req, c), noticeOf(NOTICES, req.query.aviso)),
    );
  });

  router.post('/webhooks/:id/entregas/:deliveryId/reenviar', async (req, res) => {
    const c = await configurationOf(req);
    const delivery = await deliveryOf(req, c);
    await unlessRefused(
      async () => {
        // One redelivery per filled form: sent twice, both answers lead to the one made.
        const { result } = await oncePerForm(req, panel, redeliveryForm(delivery.id), async (tx) => ({
          result: { deliveryId: (await redeliver(ctx, tenantWebhooks(req).audience.recipient, delivery.id, tx)).id },
        }));
        res.redirect(303, `${deliveriesPath(c)}/${result.deliveryId}?aviso=reenviada`);
      },
      (errors) => sendPage(req, res, 400, deliveryView(req, res, panel, c, delivery, refusalNotice(errors))),
    );
  });

  router.get('/webhooks/:id/testar', async (req, res) => {
    const c = await configurationOf(req);
    const events = eventsOf(c.events, tenantWebhooks(req).audience.vocabulary);
    sendPage(req, res, 200, testView(req, res, panel, c, { events, checked: events }));
  });

  router.post('/webhooks/:id/testar', async (req, res) => {
    const c = await configurationOf(req);
    const checked = readChoices(req, 'events');
    const tenant = tenantWebhooks(req);
    const events = eventsOf(c.events, tenant.audience.vocabulary);
    await unlessRefused(
      async () => {
        const samples = await tenant.samples();
        // One test per filled form: sent twice, its deliveries are made once.
        await oncePerForm(req, panel, testForm(c.id), async (tx) => {
          await sendTestDeliveries(ctx, tenant.audience, c.id, samples, checked, 'events', tx);
          return { result: {} };
        });
        res.redirect(303, `${deliveriesPath(c)}?aviso=teste`);
      },
      (errors) => sendPage(req, res, 400, testView(req, res, panel, c, { events, checked, errors })),
    );
  });
}
