import { sql } from 'drizzle-orm';

import type { Config } from '../../config.js';
import { ApiError } from '../../core/errors.js';
import type { Queryable } from '../../db/client.js';
import { formatBrl, formatDateBr, maskCpf } from '../../pages/formats.js';
import { html, page } from '../../pages/html.js';
import { installmentLines } from './ledger.sql.js';

/**
 * The buyer's invoice (fatura) of one installment of a receipt, at `/checkout/{token}/faturas/{n}`
 * under the sale's checkout link: what is due, when, and where it stands, as the ledger derives it.
 * It is the detail's `faturaUrl`.
 */

/** The invoice URL of installment `number` of the sale with checkout link `token`. */
export const invoiceUrlOf = (config: Pick<Config, 'publicBaseUrl'>, token: string, number: number) =>
  `${config.publicBaseUrl}/checkout/${token}/faturas/${number}`;

export class InvoiceNotFound extends ApiError {
  constructor() {
    super(404, 'RECEIPT-015', 'Invoice not found');
  }
}

type InvoiceRow = {
  partner_name: string;
  buyer_name: string;
  cpf: string;
  number: number;
  value_cents: string;
  paid_cents: string;
  status: string;
  due_on: string;
  paid_on: string | null;
  agreement_on: string | null;
  delayed_days: number | null;
};

export async function loadInvoice(db: Queryable, token: string, number: number, today: string): Promise<InvoiceRow> {
  const [row] = await db.execute<InvoiceRow>(sql`
    select p.name as partner_name, s.buyer_name, s.cpf, l.number, l.value_cents, l.paid_cents, l.status, l.due_on::text, l.paid_on::text,
      l.agreement_on::text, l.delayed_days
    from (${installmentLines(sql`r.sale_id = (select id from sales where checkout_token = ${token})`, today)}) l
    join sales s on s.id = l.sale_id
    join partners p on p.id = s.partner_id
    where l.number = ${number}`);
  if (!row) throw new InvoiceNotFound();
  return row;
}

function standing(i: InvoiceRow): string {
  if (i.status === 'paid') return `Paga em ${formatDateBr(i.paid_on!)}`;
  if (i.status === 'late') return `Vencida há ${i.delayed_days} dia${i.delayed_days === 1 ? '' : 's'}`;
  if (i.status === 'renegotiated') return 'Substituída por um acordo: pague as parcelas do acordo';
  if (i.status === 'canceled') return 'Cancelada com a compra';
  return 'Em aberto';
}

export function renderInvoicePage(i: InvoiceRow, sandbox: boolean): string {
  const title = i.number === 0 ? 'Entrada' : `Parcela nº ${i.number}`;
  return page(
    `Fatura - ${i.partner_name}`,
    html`<section class="card" aria-labelledby="fatura">
  <h1 id="fatura">${title} — vence em ${formatDateBr(i.due_on)}</h1>
  <dl class="facts">
    <dt>Comprador</dt><dd>${i.buyer_name || `CPF ${maskCpf(i.cpf)}`}</dd>
    <dt>Valor</dt><dd>${formatBrl(Number(i.value_cents))}</dd>
    <dt>Vencimento</dt><dd>${formatDateBr(i.due_on)}</dd>
    <dt>Situação</dt><dd>${standing(i)}</dd>
    ${Number(i.paid_cents) > 0 ? html`<dt>Valor pago</dt><dd>${formatBrl(Number(i.paid_cents))}</dd>` : ''}
    ${i.agreement_on ? html`<dt>Acordo de</dt><dd>${formatDateBr(i.agreement_on)}</dd>` : ''}
  </dl></section>`,
    { brand: i.partner_name, sandbox },
  );
}
