import { sql } from 'drizzle-orm';

import { dueDatesFallingDue } from '../../core/business-days.js';
import { addDays, localDate } from '../../core/local-date.js';
import type { Database } from '../../db/client.js';
import { type EventDraft, type EventOptions, recordEvents } from './store.js';

/** Days back the pass looks: an installment that became late while the worker was stopped this long is still told. */
export const OVERDUE_LOOKBACK_DAYS = 7;
/** Events stored per transaction. */
const CHUNK = 1_000;

type DueRow = {
  id: string;
  external_id: string | null;
  student_cpf: string;
  due_date: string;
  product: string;
  principal: string;
  balance: string;
  status: string;
};

const overdueEvent = (i: DueRow): EventDraft => ({
  name: 'parcelaVencida',
  subject: `${i.id}:${i.due_date}`,
  dados: {
    parcela_id: i.id,
    id_externo: i.external_id ?? '',
    aluno_cpf: i.student_cpf,
    data_vencimento: i.due_date,
    produto: i.product,
    valor_principal: i.principal,
    saldo_devedor: i.balance,
    situacao: i.status,
  },
});

/**
 * The daily pass: each installment of the institution late in Brasília with something still owed
 * is told once (`parcelaVencida`, once per installment and due date: a re-send that moves the
 * date tells it again when the new one passes). Late is the day after its business due date at
 * the earliest (`business-days.ts`): one due on a Saturday is told on Tuesday. Walks the due-date
 * index over the due dates whose business due date is one of the OVERDUE_LOOKBACK_DAYS days
 * before today, a thousand installments per transaction. Answers how many were told.
 */
export async function tellOverdueInstallments(
  db: Database,
  institutionId: string,
  now: Date,
  options: EventOptions = {},
): Promise<number> {
  const today = localDate(now);
  const due = dueDatesFallingDue(addDays(today, -OVERDUE_LOOKBACK_DAYS), addDays(today, -1));
  let told = 0;
  for (;;) {
    const found = await db.transaction(async (tx) => {
      const rows = await tx.execute<DueRow>(sql`
        select i.id::text, i.external_id, i.student_cpf, i.due_date::text, i.product, i.principal::text,
               i.balance::text, i.status
          from installments i
         where i.institution_id = ${institutionId}::uuid and i.due_date between ${due.first}::date and ${due.last}::date
           and i.status in ('ABERTO', 'PARCIALMENTE_PAGO')
           and not exists (select 1 from institution_events e
                            where e.institution_id = i.institution_id and e.name = 'parcelaVencida'
                              and e.subject = i.id::text || ':' || i.due_date::text)
         order by i.due_date, i.id
         limit ${CHUNK}`);
      await recordEvents(tx, institutionId, [...rows].map(overdueEvent), now, options);
      return rows.length;
    });
    told += found;
    if (found < CHUNK) return told;
  }
}
