import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';

import { BUSINESS_TIME_ZONE } from '../src/core/local-date.js';
import type { ContractTerms } from '../src/institution/contracts.js';
import { assignmentsInsert } from '../src/institution/statements/closing-sql.js';

const CHUNK = 100_000;
const PER_BATCH = 10_000;
/** Installments fall due evenly over the 24 months from here (2024 and 2025, 731 days). */
const FIRST_DUE = '2024-01-01';
const MONTHS = 24;
const DAYS = 731;
/** Installments per student: a student pays about one a month. */
const PER_STUDENT = 20;

/** Liquidations of the management statement per installment: 131 for 100 (see below). */
const LIQUIDATIONS_PER_INSTALLMENT = 1.31;

/**
 * The intake of `n` installments of one institution, as ingestion leaves it: a student batch and
 * a student per 20 installments (one in three with a guarantor of their own, named in the student's
 * record; the others pay their own), an installment batch per 10,000 (its id derived from the
 * institution and its number, so that every chunk finds it), and the temporary table `plan` of
 * each chunk of installments, which `write` turns into installments (product, status, payments)
 * before their submitted values are recorded.
 */
async function seedIntake(
  sql: postgres.Sql,
  institutionId: string,
  n: number,
  prefix: string,
  write: (tx: postgres.TransactionSql) => Promise<void>,
): Promise<void> {
  const students = Math.max(1, Math.ceil(n / PER_STUDENT));
  const [people] = await sql<{ id: string }[]>`
    insert into batches (institution_id, kind, status, item_count, processed_count, created_at, finished_at)
    values (${institutionId}, 'aluno', 'PROCESSADO', ${students}, ${students}, timestamptz '2023-12-01 12:00Z', timestamptz '2023-12-01 12:05Z')
    returning id`;
  await sql`
    insert into students (institution_id, cpf, ra, full_name, data, last_batch_id)
    select ${institutionId}, lpad(s::text, 11, '0'), (2024000000 + s)::text, 'Aluno ' || s,
      jsonb_build_object('cpf', lpad(s::text, 11, '0'), 'ra', (2024000000 + s)::text, 'nomeCompleto', 'Aluno ' || s,
        'email', 'aluno' || s || '@example.com')
      || case when s % 3 = 0 then jsonb_build_object('responsavelFinanceiro',
           jsonb_build_object('documento', lpad(s::text, 11, '8'), 'nome', 'Responsável ' || s)) else '{}' end,
      ${people!.id}
    from generate_series(0, ${students - 1}) as s`;
  await sql`
    insert into batches (id, institution_id, kind, status, item_count, processed_count, created_at, finished_at)
    select md5(${institutionId}::text || ':' || b)::uuid, ${institutionId}, 'parcela', 'PROCESSADO',
      least(${PER_BATCH}::int, ${n}::int - b * ${PER_BATCH}::int), least(${PER_BATCH}::int, ${n}::int - b * ${PER_BATCH}::int),
      timestamptz '2023-12-02 12:00Z' + b * interval '1 hour', timestamptz '2023-12-02 12:05Z' + b * interval '1 hour'
    from generate_series(0, ${Math.ceil(n / PER_BATCH) - 1}) as b`;
  for (let from = 1; from <= n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK - 1);
    await sql.begin(async (tx) => {
      await tx`
        create temporary table plan on commit drop as
        select uuidv7() as id, i, i % 100 as c, s,
          md5(${institutionId}::text || ':' || (i - 1) / ${PER_BATCH}::int)::uuid as batch_id, 1 + (i - 1) / ${PER_BATCH}::int as batch_seq,
          (i - 1) % ${PER_BATCH}::int as item_index, lpad(s::text, 11, '0') as cpf,
          lpad(s::text, 11, case when s % 3 = 0 then '8' else '0' end) as guarantor,
          ${prefix}::text || i as external_id, ${FIRST_DUE}::date + ((i - 1)::bigint * ${DAYS}::int / ${n}::int)::int as due_date,
          (500 + (i / 7) % 8 * 100)::numeric(14, 2) as principal
        from generate_series(${from}::int, ${to}::int) as i, lateral (select i % ${students}::int as s) x`;
      await write(tx);
      await tx`
        insert into installment_submissions (batch_id, index, sent_student_cpf, sent_guarantor_document, sent_external_id,
          sent_type_lower, sent_settlement_lower, sent_due_day, sent_course_code, sent_course_name, sent_course_degree,
          sent_course_modality, sent_organization_name, sent_campus_name, sent_campus_id)
        select p.batch_id, p.item_index, p.cpf, p.guarantor, p.external_id, 'mensalidade',
          case i.payment_type when 'Pago na IES' then 'paga' when 'Cancelado na IES' then 'cancelada' else 'aberta' end,
          p.due_date::text, 'C-' || p.s % 40, 'Curso ' || p.s % 40, 'GRADUACAO',
          case when p.s % 4 = 0 then 'EAD' else 'PRESENCIAL' end, 'Universidade Benchmark', 'Polo ' || p.s % 12, (p.s % 12)::text
        from plan p join installments i on i.id = p.id`;
    });
    process.stdout.write(`\rinstallments ${prefix}: ${to.toLocaleString('en')} / ${n.toLocaleString('en')}`);
  }
  process.stdout.write('\n');
}

/** The columns of an installment both seeds write from `plan`; each adds those of its settlement. */
const INSTALLMENT_COLUMNS = `id, institution_id, upsert_key, external_id, batch_id, batch_seq, item_index, student_cpf, student_name,
  guarantor_document, guarantor_document_type, contract_number, number, type, course_name, campus_name, due_date, principal,
  on_time_value, product`;

/**
 * A `Gestão` institution whose management statement has about `rows` liquidations, from
 * `rows / 1.31` installments. Per 100 installments: 45 paid in full by Pix and 35 by bank slip
 * (up to 10 days before their due date with the on-time discount of 5 %, or up to 4 days late
 * with a 2 % fine and 0.033 % interest a day); 5 by card in 2–12 installments (M liquidations
 * each, 7 on average); 8 paid 40 % by Pix, and half of those the rest by bank slip 25 days later;
 * 4 reported paid by the institution (`Pago na IES`); 2 open; 1 whose Pix was refunded. The
 * contract has a 3.5 % commission and a 2-day transfer delay, 4 % and 1 day from 2025.
 */
export async function seedManagementStatement(sql: postgres.Sql, institutionId: string, rows: number): Promise<void> {
  await sql`
    insert into institution_contract_versions (institution_id, effective_from, product, commission_percent, transfer_delay_days,
      transfer_allocation, guarantee_type)
    values (${institutionId}, '2023-12-01', 'Gestão', 3.5, 2, null, 'COBRANCA'),
           (${institutionId}, '2025-01-01', 'Gestão', 4, 1, 'Mantenedora Benchmark', 'COBRANCA')`;
  const n = Math.max(1, Math.round(rows / LIQUIDATIONS_PER_INSTALLMENT));
  await seedIntake(sql, institutionId, n, 'M', async (tx) => {
    await tx`
      create temporary table pays on commit drop as
      select y.*, y.owed + y.fine + y.interest - y.discount as received
      from (
        select x.*, case when x.late > 0 then round(x.owed * 0.02, 2) else 0 end as fine,
          round(x.owed * 0.00033 * x.late, 2) as interest,
          case when x.late = 0 and x.method <> 'CARD' and not x.partial then round(x.owed * 0.05, 2) else 0 end as discount
        from (
          select gen_random_uuid() as charge_id, p.id as installment_id, p.external_id, p.guarantor, k, m.method, m.card_installments,
            m.paid_on, greatest(m.paid_on - p.due_date, 0) as late, p.c between 85 and 92 as partial, p.c = 99 as refunded,
            case when p.c not between 85 and 92 then p.principal when k = 1 then round(p.principal * 0.4, 2)
                 else p.principal - round(p.principal * 0.4, 2) end as owed
          from plan p
          cross join generate_series(1, case when p.c between 93 and 98 then 0 when p.c between 85 and 92 and p.c % 2 = 0 then 2 else 1 end) as k
          cross join lateral (
            select case when p.c between 80 and 84 then 'CARD' when p.c < 45 or p.c = 99 or (p.c >= 85 and k = 1) then 'PIX' else 'BOLETO' end as method,
              case when p.c between 80 and 84 then 2 + (p.i / 100) % 11 end as card_installments,
              p.due_date + (p.i * 7) % 15 - 10 + (k - 1) * 25 as paid_on
          ) m
        ) x
      ) y`;
    await tx.unsafe(
      `insert into installments (${INSTALLMENT_COLUMNS}, status, payment_type, paid_on, balance, settled_fine, settled_interest,
        settled_discount, settled_received, interest_settled_through, paid_on_platform)
      select p.id, $1, 'ext:' || p.external_id, p.external_id, p.batch_id, p.batch_seq, p.item_index, p.cpf, 'Aluno ' || p.s,
        p.guarantor, 'CPF', 'CT-' || p.s, null, 'Mensalidade', 'Curso ' || p.s % 40, 'Polo ' || p.s % 12, p.due_date, p.principal,
        p.principal - round(p.principal * 0.05, 2), 'Gestão',
        case when ies then 'PAGO' when paid.principal is null then 'ABERTO' when paid.principal < p.principal then 'PARCIALMENTE_PAGO' else 'PAGO' end,
        case when ies then 'Pago na IES' when paid.principal is not null then 'Pago na Plataforma' end,
        case when ies then p.due_date + (p.i * 7) % 15 - 10 else paid.paid_on end,
        case when ies then 0 else p.principal - coalesce(paid.principal, 0) end,
        coalesce(paid.fine, 0), coalesce(paid.interest, 0), coalesce(paid.discount, 0),
        case when ies then p.principal else coalesce(paid.received, 0) end, paid.paid_on, paid.principal is not null
      from plan p cross join lateral (select p.c between 93 and 96 as ies) r
      left join (
        select installment_id, sum(owed) as principal, sum(fine) as fine, sum(interest) as interest, sum(discount) as discount,
          sum(received) as received, max(paid_on) as paid_on
        from pays where not refunded group by installment_id
      ) paid on paid.installment_id = p.id`,
      [institutionId],
    );
    await tx`
      insert into payment_charges (id, provider, method, status, amount_cents, paid_amount_cents, refunded_amount_cents, description,
        payer_document, reference_kind, reference_id, provider_ref, card_brand, card_last_four, card_installments, priced_for, paid_at,
        created_at, updated_at)
      select charge_id, 'stripe', method, case when refunded then 'REFUNDED' else 'PAID' end, (received * 100)::bigint,
        (received * 100)::bigint, case when refunded then (received * 100)::bigint else 0 end, 'Parcela ' || external_id,
        guarantor, 'installment', installment_id, 'pi_' || replace(charge_id::text, '-', ''),
        case when method = 'CARD' then 'visa' end, case when method = 'CARD' then '4242' end, card_installments, paid_on,
        (paid_on + time '12:00') at time zone ${BUSINESS_TIME_ZONE}, (paid_on + time '11:50') at time zone ${BUSINESS_TIME_ZONE},
        (paid_on + time '12:00') at time zone ${BUSINESS_TIME_ZONE}
      from pays`;
    await tx`
      insert into installment_payments (installment_id, charge_id, method, paid_on, received_on, received, principal, fine, interest,
        discount, created_at, reversal, reversed_at)
      select installment_id, charge_id, method, paid_on, paid_on, received, owed, fine, interest, discount,
        (paid_on + time '12:00') at time zone ${BUSINESS_TIME_ZONE}, case when refunded then 'REFUNDED' end,
        case when refunded then (paid_on + 3 + time '12:00') at time zone ${BUSINESS_TIME_ZONE} end
      from pays`;
  });
}

const guaranteedTerms = (effectiveFrom: string, commission: string, guaranteed: string): ContractTerms => ({
  effectiveFrom,
  product: 'Receita Garantida',
  commissionPercent: commission,
  guaranteedPercent: guaranteed,
  firstTransferPercent: '70.00',
  firstTransferDay: 10,
  secondTransferDay: 10,
  transferDelayDays: 0,
  transferAllocation: null,
  guaranteeType: 'RECEITA_GARANTIDA',
});

/** The versions of the guaranteed-revenue contract, the later first. */
const GUARANTEED_VERSIONS = [
  guaranteedTerms('2025-01-01', '4.50', '92.00'),
  guaranteedTerms('2023-12-01', '5.00', '90.00'),
];

/**
 * A `Receita Garantida` institution with `rows` installments due over 24 months, each month closed
 * (`statement_closings`) and its installments assigned by the service's own closing statement
 * (`assignmentsInsert`) with the contract version in force then: `rows` assignments. Per 100
 * installments 7 were reported paid by the institution and 3 cancelled (not assigned); the others
 * are open.
 */
export async function seedGuaranteedStatement(sql: postgres.Sql, institutionId: string, rows: number): Promise<void> {
  for (const v of GUARANTEED_VERSIONS)
    await sql`
      insert into institution_contract_versions (institution_id, effective_from, product, commission_percent, guaranteed_percent,
        first_transfer_percent, first_transfer_day, second_transfer_day, guarantee_type)
      values (${institutionId}, ${v.effectiveFrom}, ${v.product}, ${v.commissionPercent}, ${v.guaranteedPercent},
        ${v.firstTransferPercent}, ${v.firstTransferDay}, ${v.secondTransferDay}, ${v.guaranteeType})`;
  await seedIntake(sql, institutionId, rows, 'G', async (tx) => {
    await tx.unsafe(
      `insert into installments (${INSTALLMENT_COLUMNS}, status, payment_type, paid_on, settled_received, balance)
      select p.id, $1, 'ext:' || p.external_id, p.external_id, p.batch_id, p.batch_seq, p.item_index, p.cpf, 'Aluno ' || p.s,
        p.guarantor, 'CPF', 'CT-' || p.s, null, 'Mensalidade', 'Curso ' || p.s % 40, 'Polo ' || p.s % 12, p.due_date, p.principal,
        p.principal - round(p.principal * 0.05, 2), 'Receita Garantida',
        case when p.c < 7 then 'PAGO' when p.c < 10 then 'CANCELADO_IES' else 'ABERTO' end,
        case when p.c < 7 then 'Pago na IES' when p.c < 10 then 'Cancelado na IES' end,
        case when p.c < 7 then p.due_date - p.i % 5 end, case when p.c < 7 then p.principal else 0 end,
        case when p.c < 10 then 0 else p.principal end
      from plan p`,
      [institutionId],
    );
  });
  const dialect = new PgDialect();
  for (let m = 0; m < MONTHS; m++) {
    const month = `${Number(FIRST_DUE.slice(0, 4)) + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-01`;
    const terms = GUARANTEED_VERSIONS.find((v) => v.effectiveFrom <= month)!;
    await sql.begin(async (tx) => {
      const [closing] = await tx<{ id: string; closed_at: Date }[]>`
        insert into statement_closings (institution_id, month, status, closed_at)
        values (${institutionId}, ${month}, 'FECHADO', (${month}::date + interval '1 month' + time '03:00') at time zone ${BUSINESS_TIME_ZONE})
        returning id, closed_at`;
      const insert = dialect.sqlToQuery(assignmentsInsert(closing!.id, institutionId, month, terms));
      const assigned = await tx.unsafe(insert.sql, insert.params as never[]);
      await tx`
        insert into statement_closing_events (closing_id, action, at, actor, assignments)
        values (${closing!.id}, 'CLOSED', ${closing!.closed_at}, 'cron', ${assigned.length})`;
    });
    process.stdout.write(`\rclosings: ${m + 1} / ${MONTHS}`);
  }
  process.stdout.write('\n');
}
