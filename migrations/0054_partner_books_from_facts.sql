-- The partners' books of what moved money before they existed: each payment a buyer made on a
-- receipt (the partner's share in the TED it is expected in), each refund and chargeback recorded
-- on a receipt, and each dispute won, with the commission of the receipt. Receipts keep showing
-- what they showed; from here on every payment and every money taken back is booked as it moves.
CREATE FUNCTION ledger_next_ted(day date) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT (date_trunc('month', day) + CASE WHEN extract(day FROM day) <= 15 THEN interval '14 days' ELSE interval '1 month 14 days' END)::date
$$;
--> statement-breakpoint
INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, amount_cents, commission_cents, net_cents, principal_cents,
  moved_on, period, transfer_on, commission_percent, cause, sale_id, created_at)
SELECT 'partner', r.partner_id, 'PAYMENT', 'receipt-payment:' || p.id, p.value_cents, c.commission, p.value_cents - c.commission,
       p.value_cents, p.paid_on, date_trunc('month', p.paid_on)::date, coalesce(t.expected_on, ledger_next_ted(p.expected_compensation_on)),
       r.commission_percentage, 'receipt-payment:' || p.id, r.sale_id, p.created_at
  FROM receipt_payments p
  JOIN receipt_installments i ON i.id = p.installment_id
  JOIN receipts r ON r.sale_id = i.sale_id
  LEFT JOIN receipt_transfers t ON t.installment_id = i.id
  CROSS JOIN LATERAL (SELECT (p.value_cents * r.commission_percentage + 50) / 100 AS commission) c
 WHERE i.kind = 'installment'
   AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.tenant_id = r.partner_id AND e.record_id = 'receipt-payment:' || p.id);
--> statement-breakpoint
INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, amount_cents, commission_cents, net_cents, principal_cents,
  moved_on, period, transfer_on, commission_percent, cause, sale_id)
SELECT 'partner', r.partner_id,
       CASE WHEN a.kind = 'cancellation' THEN 'REFUND' WHEN a.value_cents > 0 THEN 'DISPUTE' ELSE 'REINSTATEMENT' END,
       'receipt-adjustment:' || a.id, -a.value_cents, -c.commission, -(a.value_cents - c.commission), -a.value_cents,
       a.occurred_on, date_trunc('month', a.occurred_on)::date, ledger_next_ted(a.occurred_on), r.commission_percentage,
       'receipt-adjustment:' || a.id, r.sale_id
  FROM receipt_adjustments a
  JOIN receipts r ON r.sale_id = a.sale_id
  CROSS JOIN LATERAL (
    SELECT sign(a.value_cents) * ((abs(a.value_cents) * r.commission_percentage + 50) / 100) AS commission
  ) c
 WHERE a.value_cents <> 0
   AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.tenant_id = r.partner_id AND e.record_id = 'receipt-adjustment:' || a.id);
