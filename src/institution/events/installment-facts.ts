import { sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import type { installments } from '../../db/schema/index.js';

type Installment = typeof installments.$inferSelect;

/** The ids an institution's system already keeps of an installment. */
export const installmentIds = (i: Installment) => ({
  parcela_id: i.id,
  id_externo: i.externalId ?? '',
  aluno_cpf: i.studentCpf,
  data_vencimento: i.dueDate,
  produto: i.product,
});

/** What the installment owes after a move: its state and its balance. */
export async function owed(tx: Queryable, installmentId: string): Promise<{ status: string; balance: string }> {
  const [row] = await tx.execute<{ status: string; balance: string }>(sql`
    select status, balance::text as balance from installments where id = ${installmentId}::uuid`);
  return row!;
}
