ALTER TABLE "receipt_installments" ADD COLUMN "kind" text DEFAULT 'installment' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipt_installments" ADD COLUMN "commission_cents" bigint;--> statement-breakpoint
ALTER TABLE "receipt_installments" ADD COLUMN "cause" text;--> statement-breakpoint
ALTER TABLE "receipt_installments" ADD CONSTRAINT "receipt_installments_kind" CHECK ("receipt_installments"."kind" in ('installment', 'refund', 'chargeback', 'reinstatement'));