import { groupDigitableLine, html, page, pixQrImage, type SafeHtml } from './html.js';

/** The code to pay with, as a QR image beside the copy-and-paste text (Pix) or the grouped digitable line. */
export function payCode(id: string, charge: { pixCode?: string | null; digitableLine?: string | null }): SafeHtml {
  if (charge.pixCode) {
    return html`<div class="pay-code">${pixQrImage(charge.pixCode, 'QR code do Pix: leia com o app do seu banco')}
      <div><p class="code-label" id="pix-${id}">Pix copia e cola: <code>${charge.pixCode}</code></p>
      <button type="button" class="secondary" data-copy="pix-${id}">Copiar código Pix</button></div></div>`;
  }
  if (charge.digitableLine) {
    return html`<p class="code-label" id="linha-${id}">Linha digitável: <code>${groupDigitableLine(charge.digitableLine)}</code></p>
      <button type="button" class="secondary" data-copy="linha-${id}">Copiar linha digitável</button>`;
  }
  return html``;
}

/** A page holding one message only: a link or checkout that does not exist, or no longer can be used. */
export function renderMessagePage(title: string, message: string): string {
  return page(title, html`<section class="card"><h1>${title}</h1><p class="notice error">${message}</p></section>`);
}
