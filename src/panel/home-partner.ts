import type { AppContext } from '../context.js';
import { firstDayOfMonth, lastDayOfMonth, localDate } from '../core/local-date.js';
import type { Profile } from '../identity/identity.rules.js';
import { dayChart } from '../pages/day-chart.js';
import { formatBrl, formatDateBr } from '../pages/formats.js';
import { formatMonthBr } from '../pages/formats.js';
import { html, type SafeHtml } from '../pages/html.js';
import { listReceipts } from '../partner/receipts/receipts-list.js';
import { confirmedPerDay, type DayConfirmed } from '../partner/sales/listing/confirmed-per-day.js';
import { listSales } from '../partner/sales/listing/list.js';
import { failingConfigurations } from '../webhooks/failing-configurations.js';
import { card, dayMonth, failingWebhooksCard, figures, listHref, seesWebhooks } from './home-month.js';
import { opensSection } from './navigation.js';

const SALES = '/painel/vendas';
const RECEIPTS = '/painel/recebimentos';

/** The first page of one row: what a count needs of a list service. */
const ONE_ROW = { page: 1, size: 1, offset: 0 };

const sales = (n: number) => `${n} ${n === 1 ? 'venda' : 'vendas'}`;

function salesCard(
  profile: Profile,
  month: string,
  created: { count: number; totalValue: number },
  confirmed: readonly DayConfirmed[],
  seller: string | undefined,
): SafeHtml {
  const last = lastDayOfMonth(month);
  const count = confirmed.reduce((n, d) => n + d.count, 0);
  const value = confirmed.reduce((n, d) => n + d.totalValue, 0);
  const best = confirmed.reduce<DayConfirmed | undefined>(
    (top, d) => (!top || d.count > top.count ? d : top),
    undefined,
  );
  const title = `Vendas confirmadas por dia em ${formatMonthBr(month)}`;
  const effectiveOn = (from: string, to = from) =>
    listHref(profile, SALES, { startEffectiveDate: from, endEffectiveDate: to });
  return card(
    'vendas-do-mes',
    `${seller ? 'Suas vendas' : 'Vendas'} em ${formatMonthBr(month)}`,
    html`${figures([
      {
        label: 'Criadas no mês',
        href: listHref(profile, SALES, { startDate: month, endDate: last }),
        count: created.count,
        detail: `${formatBrl(created.totalValue)} em valor de checkout`,
      },
      {
        label: 'Confirmadas no mês',
        href: effectiveOn(month, last),
        count,
        detail: `${formatBrl(value)} em valor de checkout`,
      },
    ])}
<p class="hint">Criadas: como na lista de vendas, sem as não iniciadas, canceladas pelo parceiro e expiradas. Confirmadas: efetivadas no dia (um pagamento reconhecido), mesmo as canceladas depois.</p>
${dayChart({
  id: 'confirmadas',
  title,
  month,
  columns: ['Vendas', 'Valor'],
  figures: confirmed.map((d) => ({
    day: d.day,
    value: d.count,
    cells: [String(d.count), formatBrl(d.totalValue)],
    href: effectiveOn(d.day),
  })),
  summary: best
    ? `${sales(count)} confirmadas, somando ${formatBrl(value)}; o dia com mais foi ${dayMonth(best.day)}, com ${sales(best.count)}.`
    : 'Nenhuma venda confirmada neste mês.',
  totals: [String(count), formatBrl(value)],
  maxLabel: best ? sales(best.count) : undefined,
})}`,
  );
}

function receiptsCard(today: string, last: string, dueThisMonth: number, late: number): SafeHtml {
  return card(
    'recebimentos-a-vencer',
    'Recebimentos',
    html`${figures([
      {
        label: `Com parcela a vencer até ${formatDateBr(last)}`,
        href: `${RECEIPTS}?${new URLSearchParams({ startPaymentDate: today, endPaymentDate: last }).toString()}`,
        count: dueThisMonth,
      },
      {
        label: 'Com parcela em atraso',
        href: `${RECEIPTS}?${new URLSearchParams({ delayedDay: '1+' }).toString()}`,
        count: late,
      },
    ])}
<p class="hint">Pelo próximo pagamento de cada recebimento (<code>nextPaymentDate</code>) e pelos dias de atraso da parcela vencida mais antiga (<code>lateDays</code>), como na lista de recebimentos.</p>`,
  );
}

/**
 * A partner's Início, this month (Brasília): the sales created and confirmed, with their value, and
 * the confirmed ones per day — a Vendedor's own only, as their sales list; for Superadmin and
 * Admin, the receipts with an installment due until the end of the month or late, and the webhooks
 * whose last delivery failed. Every count comes from the service of the list it links to.
 */
export async function partnerHome(
  ctx: AppContext,
  profile: Profile,
  partnerId: string,
  seller: string | undefined,
): Promise<SafeHtml> {
  const today = localDate(ctx.clock.now());
  const month = firstDayOfMonth(today);
  const last = lastDayOfMonth(today);
  const creators = seller ? [seller] : undefined;
  const receipts = opensSection(profile, RECEIPTS);
  const count = async (query: Parameters<typeof listReceipts>[2]) =>
    (await listReceipts(ctx, partnerId, query, ONE_ROW)).paging.totalItems;
  const [created, confirmed, due, late, failing] = await Promise.all([
    listSales(
      ctx,
      partnerId,
      { created: { from: month, to: last }, creators, useNewStatusTranslation: false },
      ONE_ROW,
    ),
    confirmedPerDay(ctx.db, partnerId, month, creators),
    receipts ? count({ startPaymentDate: today, endPaymentDate: last }) : undefined,
    receipts ? count({ delayedDay: ['1+'] }) : undefined,
    seesWebhooks(profile) ? failingConfigurations(ctx.db, { kind: 'partner', id: partnerId }) : undefined,
  ]);
  const bySellers = created.metaData.salesBySellers;
  const createdFigure = {
    count: bySellers.reduce((n, s) => n + s.count, 0),
    totalValue: bySellers.reduce((n, s) => n + s.totalValue, 0),
  };
  return html`${salesCard(profile, month, createdFigure, confirmed, seller)}
${due !== undefined && late !== undefined ? receiptsCard(today, last, due, late) : ''}
${failing ? failingWebhooksCard(failing) : ''}`;
}
