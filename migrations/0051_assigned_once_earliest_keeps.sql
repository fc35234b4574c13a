-- An installment is guaranteed by one closing at most (the unique index of the next migration).
-- Where earlier closings assigned one installment more than once (its due date moved into a later
-- month after it was closed), the earliest month's closing keeps it and each later one lists it as
-- not assigned, with nothing guaranteed: no commission, no transfer and no transfer dates. What
-- the later closings guaranteed is taken back in the books, in the month open now, from the next
-- transfer (or the one it was due in, if that is still to come).
CREATE TEMPORARY TABLE later_duplicates ON COMMIT DROP AS
SELECT d."id", d."closing_id", d."installment_id"
FROM (
  SELECT x."id", x."closing_id", x."installment_id",
         row_number() OVER (PARTITION BY x."installment_id" ORDER BY x."month", c."created_at", x."id") AS "n"
  FROM "installment_assignments" x JOIN "statement_closings" c ON c."id" = x."closing_id"
  WHERE x."assigned"
) d
WHERE d."n" > 1;
--> statement-breakpoint
INSERT INTO ledger_entries (tenant_kind, tenant_id, kind, record_id, amount_cents, commission_cents, net_cents, principal_cents,
  moved_on, period, transfer_on, commission_percent, allocation, management_type, product, external_id,
  installment_principal_cents, reverses_id, cause, installment_id, closing_id)
SELECT e.tenant_kind, e.tenant_id, 'ASSIGNMENT', e.record_id || '/assigned-twice', -e.amount_cents, -e.commission_cents,
       -e.net_cents, -e.principal_cents, t.today, ledger_legacy_period(e.tenant_id, t.today, now()),
       greatest(e.transfer_on, t.today), e.commission_percent, e.allocation, e.management_type, e.product, e.external_id,
       e.installment_principal_cents, e.id, 'assigned-twice:' || e.closing_id, e.installment_id, e.closing_id
FROM later_duplicates d
JOIN ledger_entries e ON e.closing_id = d.closing_id AND e.installment_id = d.installment_id AND e.kind = 'ASSIGNMENT'
CROSS JOIN (SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date AS today) t
WHERE e.reverses_id IS NULL;
--> statement-breakpoint
UPDATE "installment_assignments" a SET
  "assigned" = false,
  "commission_percent" = 0,
  "commission_value" = 0,
  "guaranteed_value" = 0,
  "first_transfer_value" = 0,
  "second_transfer_value" = 0,
  "first_transfer_on" = NULL,
  "second_transfer_on" = NULL
FROM later_duplicates d
WHERE d."id" = a."id";
