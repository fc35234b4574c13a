-- What a charge has given back to its payer so far: a partial refund leaves the charge paid and records its amount.
ALTER TABLE "payment_charges" ADD COLUMN "refunded_amount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "payment_charges" SET "refunded_amount_cents" = coalesce("paid_amount_cents", "amount_cents") WHERE "status" = 'REFUNDED';
