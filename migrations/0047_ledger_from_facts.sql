-- The books refuse to be rewritten: a correction is a new entry.
CREATE FUNCTION ledger_entries_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only: % refused (book a correcting entry instead)', TG_OP
    USING ERRCODE = 'object_not_in_prerequisite_state';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_update_or_delete BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_refuse_change();
--> statement-breakpoint

-- Record n of m of a payment, in cents: `liquidationRecords` of src/institution/books/liquidation.rules.ts,
-- to the cent (tests/institution/books/legacy-conversion.test.ts holds them equal).
CREATE FUNCTION ledger_record_parts(
  received bigint, fine bigint, interest bigint, discount bigint, m int, n int,
  OUT r_received bigint, OUT r_principal bigint, OUT r_fine bigint, OUT r_interest bigint, OUT r_discount bigint
) LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  principal bigint := received - fine - interest + discount;
  w bigint[]; s bigint[]; e numeric[]; rem numeric[]; total numeric; lft bigint; gross bigint; k int; i int; ord int[];
  share_r bigint; share_d bigint;
BEGIN
  IF m <= 1 THEN
    r_received := received; r_principal := principal; r_fine := fine; r_interest := interest; r_discount := discount;
    RETURN;
  END IF;
  share_r := CASE WHEN n = 1 THEN received - (received / m) * (m - 1) ELSE received / m END;
  share_d := CASE WHEN n = 1 THEN discount - (discount / m) * (m - 1) ELSE discount / m END;
  r_received := share_r; r_discount := share_d;
  IF principal < 0 OR fine < 0 OR interest < 0 THEN
    r_fine := CASE WHEN n = 1 THEN fine - (fine / m) * (m - 1) ELSE fine / m END;
    r_interest := CASE WHEN n = 1 THEN interest - (interest / m) * (m - 1) ELSE interest / m END;
    r_principal := share_r - r_fine - r_interest + share_d;
    RETURN;
  END IF;
  w := ARRAY[principal, fine, interest];
  FOR i IN 1..n LOOP
    gross := (CASE WHEN i = 1 THEN received - (received / m) * (m - 1) ELSE received / m END)
           + (CASE WHEN i = 1 THEN discount - (discount / m) * (m - 1) ELSE discount / m END);
    total := w[1] + w[2] + w[3];
    IF total = 0 THEN
      s := ARRAY[0, 0, 0]::bigint[];
    ELSE
      e := ARRAY[w[1]::numeric * gross, w[2]::numeric * gross, w[3]::numeric * gross];
      s := ARRAY[trunc(e[1] / total), trunc(e[2] / total), trunc(e[3] / total)]::bigint[];
      rem := ARRAY[e[1] - s[1] * total, e[2] - s[2] * total, e[3] - s[3] * total];
      lft := gross - (s[1] + s[2] + s[3]);
      SELECT array_agg(x ORDER BY rem[x] DESC, x) INTO ord FROM generate_series(1, 3) x;
      FOREACH k IN ARRAY ord LOOP
        EXIT WHEN lft = 0;
        IF rem[k] <> 0 THEN s[k] := s[k] + 1; lft := lft - 1; END IF;
      END LOOP;
    END IF;
    IF i = n THEN
      r_principal := s[1]; r_fine := s[2]; r_interest := s[3];
      RETURN;
    END IF;
    w := ARRAY[w[1] - s[1], w[2] - s[2], w[3] - s[3]];
  END LOOP;
END $$;
--> statement-breakpoint

-- The month something that moved on `day`, written at `at`, is booked in: the first one not closed by then.
CREATE FUNCTION ledger_legacy_period(institution uuid, day date, at timestamptz) RETURNS date LANGUAGE plpgsql STABLE AS $$
DECLARE booked date := date_trunc('month', day)::date;
BEGIN
  WHILE EXISTS (SELECT 1 FROM statement_closings c WHERE c.institution_id = institution AND c.month = booked AND c.closed_at <= at) LOOP
    booked := (booked + interval '1 month')::date;
  END LOOP;
  RETURN booked;
END $$;
--> statement-breakpoint

-- The books of everything that moved money before they existed, as the statements showed it: each
-- record dated and priced as it was then (terms of the month the money moved), booked in the month
-- it moved unless that month had closed by then. Re-runnable: it books what is not booked yet.
CREATE FUNCTION ledger_book_legacy_facts() RETURNS void LANGUAGE plpgsql AS $$
DECLARE today date := (now() AT TIME ZONE 'America/Sao_Paulo')::date;
BEGIN
  UPDATE installment_payments p SET
    received_on = coalesce(p.received_on, p.paid_on),
    records = CASE WHEN c.method = 'CARD' THEN greatest(coalesce(c.card_installments, 1), 1) ELSE 1 END,
    records_booked = least(
      CASE WHEN c.method = 'CARD' THEN greatest(coalesce(c.card_installments, 1), 1) ELSE 1 END,
      greatest(0, (today - p.paid_on) / 30 + 1)),
    settled_in_full = (
      SELECT coalesce(sum(q.principal), 0) FROM installment_payments q
       WHERE q.installment_id = p.installment_id AND (q.created_at, q.id) <= (p.created_at, p.id)
         AND (q.reversed_at IS NULL OR q.id = p.id)
    ) >= i.principal
  FROM payment_charges c, installments i
  WHERE c.id = p.charge_id AND i.id = p.installment_id
    AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.payment_id = p.id);

  -- Platform payments: each record already paid by the acquirer.
  INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, statement, amount_cents, commission_cents, net_cents,
    principal_cents, fine_cents, interest_cents, discount_cents, moved_on, period, transfer_on, commission_percent, allocation,
    management_type, product, external_id, due_on, due_month, installment_principal_cents, settlement, means, card_installment,
    card_installments, cause, installment_id, payment_id, charge_id, created_at)
  SELECT 'institution', i.institution_id, 'PAYMENT',
         CASE WHEN p.records > 1 THEN p.id || ':' || n.n ELSE p.id::text END,
         CASE WHEN i.product = 'Gestão' THEN 'gestao' END,
         r.r_received, x.commission, CASE WHEN i.product = 'Gestão' THEN r.r_received - x.commission ELSE 0 END,
         r.r_principal, r.r_fine, r.r_interest, r.r_discount,
         p.paid_on + 30 * (n.n - 1), ledger_legacy_period(i.institution_id, p.paid_on + 30 * (n.n - 1), p.created_at),
         CASE WHEN i.product = 'Gestão' THEN p.paid_on + 30 * (n.n - 1) + coalesce(v.transfer_delay_days, 0) END,
         CASE WHEN i.product = 'Gestão' THEN coalesce(v.commission_percent, 0) END, v.transfer_allocation,
         coalesce(v.guarantee_type, 'COBRANCA'), i.product, coalesce(i.external_id, i.id::text), i.due_date,
         date_trunc('month', i.due_date)::date, (i.principal * 100)::bigint,
         CASE WHEN p.settled_in_full AND n.n = p.records THEN 'TOTAL' ELSE 'PARCIAL' END,
         CASE c.method WHEN 'PIX' THEN 'PIX' WHEN 'BOLETO' THEN 'BOLETO' ELSE 'CARTAO_DE_CREDITO' END,
         CASE WHEN c.method = 'CARD' THEN n.n END, CASE WHEN c.method = 'CARD' THEN p.records END,
         'payment:' || p.id, i.id, p.id, c.id, p.created_at
    FROM installment_payments p
    JOIN installments i ON i.id = p.installment_id
    JOIN payment_charges c ON c.id = p.charge_id
    CROSS JOIN LATERAL generate_series(1, p.records_booked) n(n)
    CROSS JOIN LATERAL ledger_record_parts((p.received * 100)::bigint, (p.fine * 100)::bigint, (p.interest * 100)::bigint,
                                           (p.discount * 100)::bigint, p.records, n.n) r
    LEFT JOIN LATERAL (
      SELECT * FROM institution_contract_versions cv
       WHERE cv.institution_id = i.institution_id AND cv.effective_from <= p.paid_on + 30 * (n.n - 1)
       ORDER BY cv.effective_from DESC LIMIT 1
    ) v ON true
    CROSS JOIN LATERAL (
      SELECT CASE WHEN i.product = 'Gestão' THEN round(r.r_received * coalesce(v.commission_percent, 0) / 100)::bigint ELSE 0 END AS commission
    ) x
   WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.payment_id = p.id);

  -- Payments taken back whole (refunded, disputed): each booked record reversed on the day it was
  -- taken back, and the card installments not paid yet never made.
  INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, statement, amount_cents, commission_cents, net_cents,
    principal_cents, fine_cents, interest_cents, discount_cents, moved_on, period, transfer_on, commission_percent, allocation,
    management_type, product, external_id, due_on, due_month, installment_principal_cents, means, card_installment, card_installments,
    reverses_id, cause, installment_id, payment_id, charge_id, created_at)
  SELECT e.tenant_kind, e.tenant_id, CASE WHEN p.reversal = 'REFUNDED' THEN 'REFUND' ELSE 'DISPUTE' END,
         e.record_id || '/legacy:' || p.reversal, e.statement,
         -e.amount_cents, -e.commission_cents, -e.net_cents, -e.principal_cents, -e.fine_cents, -e.interest_cents, -e.discount_cents,
         d.day, ledger_legacy_period(e.tenant_id, d.day, p.reversed_at),
         CASE WHEN e.statement IS NOT NULL THEN d.day + coalesce(v.transfer_delay_days, 0) END,
         e.commission_percent, e.allocation, e.management_type, e.product, e.external_id, e.due_on, e.due_month, e.installment_principal_cents,
         e.means, e.card_installment, e.card_installments, e.id, 'legacy:' || p.id, e.installment_id, e.payment_id, e.charge_id,
         p.reversed_at
    FROM installment_payments p
    JOIN ledger_entries e ON e.payment_id = p.id AND e.kind = 'PAYMENT'
    CROSS JOIN LATERAL (SELECT (p.reversed_at AT TIME ZONE 'America/Sao_Paulo')::date AS day) d
    LEFT JOIN LATERAL (
      SELECT * FROM institution_contract_versions cv
       WHERE cv.institution_id = e.tenant_id AND cv.effective_from <= d.day
       ORDER BY cv.effective_from DESC LIMIT 1
    ) v ON true
   WHERE p.reversed_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM ledger_entries x WHERE x.payment_id = p.id AND x.cause = 'legacy:' || p.id);

  INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, amount_cents, commission_cents, net_cents,
    principal_cents, fine_cents, interest_cents, discount_cents, moved_on, period, product, external_id, due_on, due_month,
    installment_principal_cents, means, card_installment, card_installments, cause, installment_id, payment_id, charge_id, created_at)
  SELECT 'institution', i.institution_id, 'SCHEDULE_CUT', p.id || ':' || n.n || '/legacy:' || p.reversal,
         -r.r_received, 0, 0, -r.r_principal, -r.r_fine, -r.r_interest, -r.r_discount,
         (p.reversed_at AT TIME ZONE 'America/Sao_Paulo')::date,
         ledger_legacy_period(i.institution_id, (p.reversed_at AT TIME ZONE 'America/Sao_Paulo')::date, p.reversed_at),
         i.product, coalesce(i.external_id, i.id::text), i.due_date, date_trunc('month', i.due_date)::date, (i.principal * 100)::bigint, 'CARTAO_DE_CREDITO',
         n.n, p.records, 'legacy:' || p.id, i.id, p.id, p.charge_id, p.reversed_at
    FROM installment_payments p
    JOIN installments i ON i.id = p.installment_id
    CROSS JOIN LATERAL generate_series(p.records_booked + 1, p.records) n(n)
    CROSS JOIN LATERAL ledger_record_parts((p.received * 100)::bigint, (p.fine * 100)::bigint, (p.interest * 100)::bigint,
                                           (p.discount * 100)::bigint, p.records, n.n) r
   WHERE p.reversed_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM ledger_entries x WHERE x.payment_id = p.id AND x.kind = 'SCHEDULE_CUT');

  -- Settlements reported by institutions of `Gestão` installments: the commission they owe.
  INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, statement, amount_cents, commission_cents, net_cents,
    principal_cents, fine_cents, interest_cents, discount_cents, moved_on, period, transfer_on, commission_percent, allocation,
    management_type, product, external_id, due_on, due_month, installment_principal_cents, settlement, means, cause, installment_id, created_at)
  SELECT 'institution', i.institution_id, 'IES_SETTLEMENT', i.id || ':IES', 'gestao',
         a.received, x.commission, -x.commission,
         a.received - a.fine - a.interest + a.discount, a.fine, a.interest, a.discount,
         i.paid_on, ledger_legacy_period(i.institution_id, i.paid_on, i.updated_at),
         i.paid_on + coalesce(v.transfer_delay_days, 0), coalesce(v.commission_percent, 0), v.transfer_allocation,
         coalesce(v.guarantee_type, 'COBRANCA'), i.product, coalesce(i.external_id, i.id::text), i.due_date,
         date_trunc('month', i.due_date)::date, (i.principal * 100)::bigint, 'TOTAL', 'NAO_INFORMADO', 'ies:legacy', i.id, i.updated_at
    FROM installments i
    CROSS JOIN LATERAL (
      SELECT (i.settled_received * 100)::bigint AS received, (i.settled_fine * 100)::bigint AS fine,
             (i.settled_interest * 100)::bigint AS interest, (i.settled_discount * 100)::bigint AS discount
    ) a
    LEFT JOIN LATERAL (
      SELECT * FROM institution_contract_versions cv
       WHERE cv.institution_id = i.institution_id AND cv.effective_from <= i.paid_on
       ORDER BY cv.effective_from DESC LIMIT 1
    ) v ON true
    CROSS JOIN LATERAL (SELECT round(a.received * coalesce(v.commission_percent, 0) / 100)::bigint AS commission) x
   WHERE i.product = 'Gestão' AND i.status = 'PAGO' AND i.payment_type = 'Pago na IES' AND NOT i.paid_on_platform
     AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.installment_id = i.id AND e.kind = 'IES_SETTLEMENT');

  -- The guaranteed revenue of every closing: two transfers per installment it assigned.
  INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, amount_cents, commission_cents, net_cents,
    principal_cents, moved_on, period, transfer_on, commission_percent, allocation, management_type, product, external_id,
    installment_principal_cents, cause, installment_id, closing_id, created_at)
  SELECT 'institution', a.institution_id, 'ASSIGNMENT', a.id || ':' || t.n, 0,
         CASE WHEN t.n = 1 THEN (a.commission_value * 100)::bigint ELSE 0 END,
         (CASE WHEN t.n = 1 THEN a.first_transfer_value ELSE a.second_transfer_value END * 100)::bigint,
         0, a.month, a.month, CASE WHEN t.n = 1 THEN a.first_transfer_on ELSE a.second_transfer_on END,
         a.commission_percent, a.allocation, a.guarantee_type, 'Receita Garantida', a.external_id,
         (a.principal * 100)::bigint, 'closing:' || a.closing_id, a.installment_id, a.closing_id, c.closed_at
    FROM installment_assignments a
    JOIN statement_closings c ON c.id = a.closing_id
    CROSS JOIN (VALUES (1), (2)) t(n)
   WHERE a.assigned
     AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.closing_id = a.closing_id AND e.installment_id = a.installment_id);
END $$;
--> statement-breakpoint
SELECT ledger_book_legacy_facts();
--> statement-breakpoint
ALTER TABLE "installment_payments" ALTER COLUMN "received_on" SET NOT NULL;
