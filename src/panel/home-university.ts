import type { AppContext } from '../context.js';
import { addDays, firstDayOfMonth, lastDayOfMonth, localDate, startOfLocalDay } from '../core/local-date.js';
import { parseCents } from '../core/money.js';
import type { Profile } from '../identity/identity.rules.js';
import { batchesWithErrorsSince, type BatchWithErrors } from '../institution/intake/recent-batch-errors.js';
import {
  type InstallmentFigure,
  lastLateDueDate,
  type MonthInstallments,
  monthInstallments,
  UNPAID_STATUSES,
  type UnpaidStatus,
} from '../institution/listings/month-installments.js';
import { type DayReceived, receivedPerDay } from '../institution/listings/received-per-day.js';
import { dayChart } from '../pages/day-chart.js';
import { formatBrl, formatMonthBr } from '../pages/formats.js';
import { html, type SafeHtml } from '../pages/html.js';
import { failingConfigurations } from '../webhooks/failing-configurations.js';
import { card, dayMonth, failingWebhooksCard, figures, linkOr, listHref, seesWebhooks } from './home-month.js';
import { opensSection } from './navigation.js';
import { formatInstant } from './time.js';

const INSTALLMENTS = '/painel/parcelas';
const BATCHES = '/painel/lotes';

/** Days of the batches' card: today and the six before it, in Brasília. */
const BATCH_DAYS = 7;

const brl = (reais: string) => formatBrl(parseCents(reais) ?? 0);

const UNPAID_WORDS: Record<UnpaidStatus, [string, string]> = {
  ABERTO: ['sem pagamento', 'sem pagamento'],
  PARCIALMENTE_PAGO: ['parcialmente paga', 'parcialmente pagas'],
};

/**
 * The unpaid installments of one kind (open or late) split by `situacao`, each part a link to the
 * installments list filtered by that status and the same due days.
 */
function unpaidDetail(
  profile: Profile,
  parts: Record<UnpaidStatus, InstallmentFigure>,
  due: { from: string; to: string },
): SafeHtml {
  const total = UNPAID_STATUSES.reduce((sum, s) => sum + (parseCents(parts[s].amount) ?? 0), 0);
  const split = UNPAID_STATUSES.filter((s) => parts[s].count > 0).map((s) => {
    const { count } = parts[s];
    const href = listHref(profile, INSTALLMENTS, {
      situacao: s,
      data_inicial_vencimento: due.from,
      data_final_vencimento: due.to,
    });
    return linkOr(href, `${count} ${UNPAID_WORDS[s][count === 1 ? 0 : 1]}`);
  });
  return html`${formatBrl(total)} de saldo${split.length ? html` (${split.map((s, i) => html`${i ? ', ' : ''}${s}`)})` : ''}`;
}

const countOf = (parts: Record<UnpaidStatus, InstallmentFigure>) =>
  UNPAID_STATUSES.reduce((sum, s) => sum + parts[s].count, 0);

function installmentsCard(profile: Profile, month: string, today: string, m: MonthInstallments): SafeHtml {
  const last = lastDayOfMonth(month);
  const lastLate = lastLateDueDate(today);
  const firstOpen = addDays(lastLate, 1) > month ? addDays(lastLate, 1) : month;
  const paidHref = listHref(profile, INSTALLMENTS, {
    situacao: 'PAGO',
    data_inicial_vencimento: month,
    data_final_vencimento: last,
  });
  return card(
    'parcelas-do-mes',
    `Parcelas que vencem em ${formatMonthBr(month)}`,
    html`${figures([
      {
        label: 'Em aberto, a vencer',
        count: countOf(m.open),
        detail: unpaidDetail(profile, m.open, { from: firstOpen, to: last }),
      },
      { label: 'Pagas', href: paidHref, count: m.paid.count, detail: `${brl(m.paid.amount)} de valor principal` },
      {
        label: 'Em atraso',
        count: countOf(m.late),
        detail: unpaidDetail(profile, m.late, { from: month, to: lastLate }),
      },
    ])}
<p class="hint">Em atraso: sem pagamento completo e com vencimento antes de hoje; um vencimento em sábado, domingo ou feriado nacional passa para o dia útil seguinte (<code>dias_atraso</code> acima de 0). Os valores em aberto são o <code>saldo_atual</code>.</p>`,
  );
}

function receivedCard(month: string, days: readonly DayReceived[]): SafeHtml {
  const cents = days.map((d) => parseCents(d.received) ?? 0);
  const total = cents.reduce((a, b) => a + b, 0);
  const payments = days.reduce((sum, d) => sum + d.payments, 0);
  const best = days.reduce<number>((top, _, i) => (cents[i]! > (cents[top] ?? -1) ? i : top), -1);
  const title = `Recebido pela plataforma por dia em ${formatMonthBr(month)}`;
  const summary =
    best < 0
      ? 'Nenhum pagamento pela plataforma neste mês.'
      : `${formatBrl(total)} em ${payments} ${payments === 1 ? 'pagamento' : 'pagamentos'}; o maior dia foi ${dayMonth(days[best]!.day)}, com ${formatBrl(cents[best]!)}.`;
  return card(
    'recebido-por-dia',
    title,
    dayChart({
      id: 'recebido',
      title,
      month,
      columns: ['Recebido', 'Pagamentos'],
      figures: days.map((d, i) => ({
        day: d.day,
        value: cents[i]!,
        cells: [formatBrl(cents[i]!), String(d.payments)],
      })),
      summary,
      totals: [formatBrl(total), String(payments)],
      maxLabel: formatBrl(Math.max(0, ...cents)),
      captionHidden: true,
    }),
  );
}

const KINDS: Record<string, string> = { aluno: 'Alunos', parcela: 'Parcelas' };

/** Shown only to the profiles that open the batches: each batch links to its page and its errors. */
function batchesCard(found: { total: number; batches: BatchWithErrors[] }): SafeHtml {
  const item = (b: BatchWithErrors) =>
    html`<li><a href="${BATCHES}/${b.id}">${KINDS[b.kind] ?? b.kind} de ${formatInstant(b.createdAt)}</a>: ${b.errorCount} de ${b.itemCount} ${b.itemCount === 1 ? 'item recusado' : 'itens recusados'}</li>`;
  const more =
    found.total > found.batches.length
      ? html`<p>E mais ${found.total - found.batches.length} na <a href="${BATCHES}">lista de lotes</a>.</p>`
      : '';
  return card(
    'lotes-com-erros',
    `Lotes com itens recusados nos últimos ${BATCH_DAYS} dias`,
    found.total
      ? html`<p>${found.total} ${found.total === 1 ? 'lote' : 'lotes'}:</p><ul class="plain">${found.batches.map(item)}</ul>${more}`
      : html`<p>Nenhum lote com itens recusados nos últimos ${BATCH_DAYS} dias.</p>`,
  );
}

/**
 * A university's Início: what its profile opens, this month (Brasília): the installments due
 * (open, paid, late, with their amounts) and what was received each day, for the Administrador and
 * the Financeiro; the batches with refused items of the last seven days, for the Administrador and
 * Integração; the webhooks whose last delivery failed, for the users of the Webhooks section.
 */
export async function universityHome(ctx: AppContext, profile: Profile, institutionId: string): Promise<SafeHtml> {
  const now = ctx.clock.now();
  const today = localDate(now);
  const month = firstDayOfMonth(today);
  const money = opensSection(profile, INSTALLMENTS);
  const batches = opensSection(profile, BATCHES);
  const [installments, received, batchErrors, failing] = await Promise.all([
    money ? monthInstallments(ctx.db, institutionId, month, today) : undefined,
    money ? receivedPerDay(ctx.db, institutionId, month) : undefined,
    batches
      ? batchesWithErrorsSince(ctx.db, institutionId, startOfLocalDay(addDays(today, 1 - BATCH_DAYS)))
      : undefined,
    seesWebhooks(profile) ? failingConfigurations(ctx.db, { kind: 'institution', id: institutionId }) : undefined,
  ]);
  return html`${installments ? installmentsCard(profile, month, today, installments) : ''}
${received ? receivedCard(month, received) : ''}
${batchErrors ? batchesCard(batchErrors) : ''}
${failing ? failingWebhooksCard(failing) : ''}`;
}
