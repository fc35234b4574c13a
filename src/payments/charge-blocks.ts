import { localDate } from '../core/local-date.js';
import { formatDateBr, formatTimeBr } from '../pages/formats.js';
import { html, page, type SafeHtml } from '../pages/html.js';
import { groupDigitableLine, pixQrImage } from './charge-marks.js';
import type { Charge } from './provider.js';

const METHOD_NAMES: Record<Charge['method'], string> = { PIX: 'Pix', BOLETO: 'Boleto', CARD: 'Cartão de crédito' };
export const CHARGE_STATUS_NAMES: Record<Charge['status'], string> = {
  PENDING: 'Aguardando pagamento',
  PAID: 'Pago',
  EXPIRED: 'Expirado',
  DECLINED: 'Recusado',
  REFUNDED: 'Estornado',
  DISPUTED: 'Em contestação',
  CHARGED_BACK: 'Contestado (chargeback)',
};

/** `Pix`, `Boleto`, `Cartão de crédito visa final 4242`. */
export const chargeMethodLabel = (charge: Pick<Charge, 'method' | 'card'>): string =>
  `${METHOD_NAMES[charge.method]}${charge.card ? ` ${charge.card.brand} final ${charge.card.lastFour}` : ''}`;

type Payable = Partial<Pick<Charge, 'pixCode' | 'pixQrImageUrl' | 'digitableLine' | 'voucherUrl' | 'expiresAt'>>;

/**
 * `Pague até 23:59 de 15/01/2026`: the last minute of the charge's life — the end of a day (it
 * expires at the next midnight), or the minute a Pix made late at night lives to.
 */
function deadline(expiresAt: Date | null | undefined): SafeHtml {
  if (!expiresAt) return html``;
  const last = new Date(expiresAt.getTime() - 1);
  const endOfDay = localDate(last) !== localDate(expiresAt);
  const time = endOfDay ? '23:59' : formatTimeBr(expiresAt, expiresAt).slice(0, 5);
  return html`<p class="hint">Pague até ${time} de ${formatDateBr(localDate(last))} (horário de Brasília).</p>`;
}

/**
 * The code to pay with: the Pix QR image (the provider's own, or drawn here from the code) beside
 * the copy-and-paste text, or the bank slip's grouped digitable line with the provider's voucher;
 * each with its deadline.
 */
export function payCode(id: string, charge: Payable): SafeHtml {
  const label = 'QR code do Pix: leia com o app do seu banco';
  if (charge.pixCode) {
    const image = charge.pixQrImageUrl
      ? html`<img src="${charge.pixQrImageUrl}" alt="${label}" width="192" height="192">`
      : pixQrImage(charge.pixCode, label);
    return html`<div class="pay-code">${image}
      <div><p class="code-label" id="pix-${id}">Pix copia e cola: <code>${charge.pixCode}</code></p>
      <button type="button" class="secondary" data-copy="pix-${id}">Copiar código Pix</button>${deadline(charge.expiresAt)}</div></div>`;
  }
  if (charge.digitableLine) {
    return html`<p class="code-label" id="linha-${id}">Linha digitável: <code>${groupDigitableLine(charge.digitableLine)}</code></p>
      <button type="button" class="secondary" data-copy="linha-${id}">Copiar linha digitável</button>
      ${charge.voucherUrl ? html`<p><a href="${charge.voucherUrl}" target="_blank" rel="noopener">Abrir o boleto para imprimir ou baixar</a></p>` : ''}${deadline(charge.expiresAt)}`;
  }
  return html``;
}

/** A page holding one message only: a link or checkout that does not exist, or no longer can be used. */
export function renderMessagePage(title: string, message: string): string {
  return page(title, html`<section class="card"><h1>${title}</h1><p class="notice error">${message}</p></section>`);
}
