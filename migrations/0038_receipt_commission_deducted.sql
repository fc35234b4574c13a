-- The commission a receipt deducts; null until the worker summarises the receipt again at its start.
ALTER TABLE "receipt_summaries" ADD COLUMN "commission_cents" bigint;