import { type SQL, sql } from 'drizzle-orm';

/**
 * The management statement is the institution's records of the books listed on it (`statement =
 * 'gestao'`): platform payments of `Gestão` installments (a card in M installments, one record a
 * month as the acquirer pays), settlements the institution reported, and the refunds, disputes and
 * reinstatements booked against them. Every figure is the record's own, frozen when it was booked;
 * only who the installment's guarantor is, and the course's modality, are read as they are now.
 */

/** Records of the statement matching `where` (a condition on `e`), in the statement's order from `after`. */
export function managementRecordsQuery(
  institutionId: string,
  where: SQL,
  after: [string, string] | undefined,
  limit: number,
): SQL {
  return sql`
    select e.record_id, e.kind, e.settlement, e.means, e.card_installment, e.card_installments,
           e.payment_id::text as payment_id, e.charge_id::text as charge_id, e.installment_id::text as installment_id,
           e.external_id, e.due_on::text as due_on, e.due_month::text as due_month,
           e.moved_on::text as moved_on, to_char(e.moved_on, 'MM/YYYY') as moved_month,
           e.transfer_on::text as transfer_on, e.commission_percent::text as commission_percent,
           e.installment_principal_cents, e.amount_cents, e.commission_cents, e.net_cents,
           e.principal_cents, e.fine_cents, e.interest_cents, e.discount_cents,
           e.management_type, coalesce(e.allocation, inst.name) as allocation,
           inst.id::text as institution_id, inst.name as institution_name, i.guarantor_document,
           coalesce(case when i.guarantor_document = i.student_cpf then coalesce(s.full_name, i.student_name)
                         when s.data->'responsavelFinanceiro'->>'documento' = i.guarantor_document then s.data->'responsavelFinanceiro'->>'nome' end, '') as guarantor_name,
           coalesce(sub.sent_course_modality, '') as modality
      from (
        select * from ledger_entries e
         where e.tenant_id = ${institutionId}::uuid and e.statement = 'gestao' and ${where}
           ${after ? sql`and (e.transfer_on, e.record_id) > (${after[0]}::date, ${after[1]})` : sql``}
         order by e.transfer_on, e.record_id
         limit ${limit}
      ) e
      join installments i on i.id = e.installment_id
      join institutions inst on inst.id = e.tenant_id
      left join students s on s.institution_id = i.institution_id and s.cpf = i.student_cpf
      left join installment_submissions sub on sub.batch_id = i.batch_id and sub.index = i.item_index
     order by e.transfer_on, e.record_id`;
}

/** How many records of the statement match `where`. */
export const managementCountQuery = (institutionId: string, where: SQL): SQL => sql`
  select count(*)::int as n from ledger_entries e
   where e.tenant_id = ${institutionId}::uuid and e.statement = 'gestao' and ${where}`;

/** A row of `managementRecordsQuery`: cents as numbers, dates as text. */
export interface ManagementRow {
  record_id: string;
  kind: string;
  settlement: string | null;
  means: string;
  card_installment: number | null;
  card_installments: number | null;
  payment_id: string | null;
  charge_id: string | null;
  installment_id: string;
  external_id: string;
  due_on: string;
  due_month: string;
  moved_on: string;
  moved_month: string;
  transfer_on: string;
  commission_percent: string;
  installment_principal_cents: string | number;
  amount_cents: string | number;
  commission_cents: string | number;
  net_cents: string | number;
  principal_cents: string | number;
  fine_cents: string | number;
  interest_cents: string | number;
  discount_cents: string | number;
  management_type: string;
  allocation: string;
  institution_id: string;
  institution_name: string;
  guarantor_document: string;
  guarantor_name: string;
  modality: string;
}
