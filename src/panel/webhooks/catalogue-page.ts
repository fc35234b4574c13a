import type { RequestHandler } from 'express';

import { type CatalogueEvent, webhookEventCatalogue } from '../../partner/webhooks/catalogue.js';
import { html } from '../../payments/html.js';
import { sendPage } from '../layout.js';
import { WEBHOOKS_CRUMB } from './configuration-pages.js';
import { EVENT_LABELS } from './vocabulary.js';

const eventCard = ({ name, example }: CatalogueEvent) => html`<section class="card" aria-labelledby="evento-${name}">
  <h2 id="evento-${name}">${EVENT_LABELS[name].label} <code>${name}</code></h2>
  <p>Enviado quando ${EVENT_LABELS[name].when}</p>
  <details class="more"><summary>Exemplo de payload</summary><pre><code>${example}</code></pre></details>
</section>`;

/** `/painel/webhooks/eventos`: every event with the example payload of the Partner API document. */
export const cataloguePage = (): RequestHandler => async (req, res) => {
  const events = await webhookEventCatalogue();
  sendPage(req, res, 200, {
    title: 'Catálogo de eventos',
    breadcrumb: [WEBHOOKS_CRUMB],
    body: html`<section class="card">
  <p>Cada entrega é um <code>POST</code> com o evento em JSON e os cabeçalhos <code>Content-Type: application/json</code>, <code>X-Webhook-Event-Id</code> (o mesmo em todas as tentativas: use-o para descartar repetições), <code>X-Webhook-Attempt</code> (1 a 4) e, se o webhook tiver token, <code>authorization</code>. As datas do checkout vêm em horário de Brasília escrito com <code>Z</code>; cada uma tem ao lado a sua versão em UTC (<code>…Utc</code>).</p>
  <p>A referência completa está na <a href="/docs/partner">documentação da Partner API</a>.</p>
</section>
${events.map(eventCard)}`,
  });
};
