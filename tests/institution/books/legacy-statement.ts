/* eslint-disable @typescript-eslint/no-explicit-any -- rows of the old statement are read by column name */
import { type SQL, sql } from 'drizzle-orm';

import { formatCents, parseCents } from '../../../src/core/money.js';
import type { Queryable } from '../../../src/db/client.js';
import { liquidationRecords } from '../../../src/institution/books/liquidation.rules.js';

/**
 * The management statement as it was computed before the books existed, from the current state of
 * payments (a payment taken back left it): the oracle of the migration that booked those facts.
 */
function legacyLiquidations(institutionId: string): SQL {
  return sql`(
    with platform as (
      select p.installment_id, p.id::text as payment_id, p.charge_id::text as charge_id, p.method,
             c.card_installments, n.n, coalesce(c.card_installments, 1) as m,
             p.paid_on + (n.n - 1) * 30 as received_on,
             p.received, p.principal, p.fine, p.interest, p.discount,
             sum(p.principal) over (partition by p.installment_id order by p.created_at, p.id) as principal_so_far
        from installment_payments p
        join installments i on i.id = p.installment_id
        join payment_charges c on c.id = p.charge_id
        cross join lateral generate_series(1, greatest(coalesce(c.card_installments, 1), 1)) as n(n)
       where i.institution_id = ${institutionId} and i.product = 'Gestão'
         -- A payment refunded or disputed was taken back: it collected nothing.
         and p.reversed_at is null
    ),
    liquidations as (
      select installment_id,
             payment_id || case when m > 1 then ':' || n else '' end as liquidation_id,
             payment_id, charge_id, 'Pago na Plataforma' as payment_type,
             case method when 'PIX' then 'PIX' when 'BOLETO' then 'BOLETO' else 'CARTAO_DE_CREDITO' end as payment_means,
             case when method = 'CARD' then n || '/' || m end as card_split,
             received_on,
             case when (select principal from installments where id = installment_id) <= principal_so_far and n = m then 'TOTAL' else 'PARCIAL' end as kind,
             n, m, received as payment_received, fine, interest, discount,
             trunc(received * 100 / m) / 100 + case when n = 1 then received - m * (trunc(received * 100 / m) / 100) else 0 end as received
        from platform
      union all
      select i.id, i.id::text || ':IES', null, null, 'Pago na IES', 'NAO_INFORMADO', null, i.paid_on, 'TOTAL',
             1, 1, i.settled_received, i.settled_fine, i.settled_interest, i.settled_discount, i.settled_received
        from installments i
       where i.institution_id = ${institutionId} and i.product = 'Gestão' and i.status = 'PAGO'
         and i.payment_type = 'Pago na IES' and not i.paid_on_platform
    )
    select l.liquidation_id, l.payment_id, l.charge_id, l.payment_type, l.payment_means, l.card_split, l.kind,
           i.id as installment_id, coalesce(i.external_id, i.id::text) as external_id,
           i.institution_id::text as institution_id, inst.name as institution_name,
           i.guarantor_document,
           coalesce(case when i.guarantor_document = i.student_cpf then coalesce(s.full_name, i.student_name)
                         when s.data->'responsavelFinanceiro'->>'documento' = i.guarantor_document then s.data->'responsavelFinanceiro'->>'nome' end, '') as guarantor_name,
           coalesce(v.transfer_allocation, inst.name) as allocation,
           coalesce(sub.sent_course_modality, '') as modality,
           coalesce(v.guarantee_type, 'COBRANCA') as management_type,
           i.due_date::text as due_date,
           date_trunc('month', i.due_date)::date::text as due_month,
           l.received_on::text as received_on,
           to_char(l.received_on, 'MM/YYYY') as received_month,
           i.principal::text as installment_principal,
           l.n, l.m,
           l.payment_received::numeric(14, 2)::text as payment_received,
           l.interest::numeric(14, 2)::text as payment_interest,
           l.fine::numeric(14, 2)::text as payment_fine,
           l.discount::numeric(14, 2)::text as payment_discount,
           l.received::numeric(14, 2)::text as received,
           coalesce(v.commission_percent, 0)::text as commission_percent,
           round(l.received * coalesce(v.commission_percent, 0) / 100, 2)::numeric(14, 2)::text as commission,
           (case when l.payment_type = 'Pago na IES' then 0 else l.received end
              - round(l.received * coalesce(v.commission_percent, 0) / 100, 2))::numeric(14, 2)::text as transfer,
           (l.received_on + coalesce(v.transfer_delay_days, 0))::text as transfer_on
      from liquidations l
      join installments i on i.id = l.installment_id
      join institutions inst on inst.id = i.institution_id
      left join students s on s.institution_id = i.institution_id and s.cpf = i.student_cpf
      left join installment_submissions sub on sub.batch_id = i.batch_id and sub.index = i.item_index
      left join lateral (
        select * from institution_contract_versions cv
         where cv.institution_id = i.institution_id and cv.effective_from <= l.received_on
         order by cv.effective_from desc limit 1
      ) v on true
  )`;
}

const cents = (value: string) => parseCents(value)!;

/** The old statement's records, with the figures the books' records must repeat. */
export async function legacyRecords(db: Queryable, institutionId: string) {
  const rows = await db.execute<Record<string, any>>(
    sql`select * from ${legacyLiquidations(institutionId)} m order by transfer_on, liquidation_id`,
  );
  return rows.map((row) => {
    const payment = {
      received: cents(row.payment_received),
      fine: cents(row.payment_fine),
      interest: cents(row.payment_interest),
      discount: cents(row.payment_discount),
    };
    const parts = liquidationRecords(payment, row.m)[row.n - 1]!;
    return {
      liquidacao_gestao_id: row.liquidation_id,
      parcela_id_externo: row.external_id,
      tipo_liquidacao: row.kind,
      tipo_pagamento: row.payment_type,
      meio_pagamento: row.payment_means,
      data_recebimento: row.received_on,
      data_repasse: row.transfer_on,
      competencia_vencimento: row.due_month,
      comissao_percentual: Number(row.commission_percent).toFixed(2),
      comissao_valor: row.commission,
      valor_repasse: row.transfer,
      valor_recebido_principia: formatCents(parts.principal),
      liquidacao: {
        valor_juros: formatCents(parts.interest),
        valor_multa: formatCents(parts.fine),
        valor_desconto: formatCents(parts.discount),
        valor_recebido_total: formatCents(parts.received),
      },
    };
  });
}
