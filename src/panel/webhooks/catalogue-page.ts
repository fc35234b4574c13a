import type { RequestHandler } from 'express';

import { html } from '../../pages/html.js';
import { sendPage } from '../layout.js';
import { WEBHOOKS_CRUMB } from './configuration-pages.js';
import { tenantWebhooks } from './tenant.js';
import { eventInfo } from './vocabulary.js';

const eventCard = ({
  name,
  example,
}: {
  name: string;
  example: string;
}) => html`<section class="card" aria-labelledby="evento-${name}">
  <h2 id="evento-${name}">${eventInfo(name).label} <code>${name}</code></h2>
  <p>Enviado quando ${eventInfo(name).when}</p>
  <details class="more"><summary>Exemplo de payload</summary><pre><code>${example}</code></pre></details>
</section>`;

/** A partner's checkout dates come in two forms, which only its events carry. */
const CHECKOUT_DATES = html` As datas do checkout vêm em horário de Brasília escrito com <code>Z</code>; cada uma tem ao lado a sua versão em UTC (<code>…Utc</code>).`;

/** `/painel/webhooks/eventos`: every event of the tenant's API with the example payload of its document. */
export const cataloguePage = (): RequestHandler => async (req, res) => {
  const tenant = tenantWebhooks(req);
  const events = await tenant.catalogue();
  sendPage(req, res, 200, {
    title: 'Catálogo de eventos',
    breadcrumb: [WEBHOOKS_CRUMB],
    body: html`<section class="card">
  <p>Cada entrega é um <code>POST</code> com o evento em JSON e os cabeçalhos <code>Content-Type: application/json</code>, <code>X-Webhook-Event-Id</code> (o mesmo em todas as tentativas: use-o para descartar repetições), <code>X-Webhook-Attempt</code> (1 a 4) e, se o webhook tiver token, <code>authorization</code>.${tenant.audience.recipient.kind === 'partner' ? CHECKOUT_DATES : ''}</p>
  <p>A referência completa está na <a href="${tenant.words.docs}">${tenant.words.docsLabel}</a>.</p>
</section>
${events.map(eventCard)}`,
  });
};
