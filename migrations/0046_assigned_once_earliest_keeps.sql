-- An installment is guaranteed by one closing at most (the unique index of the next migration).
-- Where earlier closings assigned one installment more than once (its due date moved into a later
-- month after it was closed), the earliest month's closing keeps it and each later one lists it as
-- not assigned, with nothing guaranteed: no commission, no transfer and no transfer dates.
UPDATE "installment_assignments" a SET
  "assigned" = false,
  "commission_percent" = 0,
  "commission_value" = 0,
  "guaranteed_value" = 0,
  "first_transfer_value" = 0,
  "second_transfer_value" = 0,
  "first_transfer_on" = NULL,
  "second_transfer_on" = NULL
FROM (
  SELECT x."id", row_number() OVER (PARTITION BY x."installment_id" ORDER BY x."month", c."created_at", x."id") AS "n"
  FROM "installment_assignments" x JOIN "statement_closings" c ON c."id" = x."closing_id"
  WHERE x."assigned"
) d
WHERE d."id" = a."id" AND d."n" > 1;
