-- A charge settles as of the day it was priced for; refunds are kept with the provider's status; disputes are followed, not taken as lost; a reversed installment payment no longer settles it; an event that keeps failing at the reconciliation is set aside.
CREATE TABLE "payment_event_failures" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"attempts" integer NOT NULL,
	"last_error" text NOT NULL,
	"set_aside_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_event_failures_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"charge_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"provider_ref" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "interest_settled_through" date;--> statement-breakpoint
ALTER TABLE "installment_payments" ADD COLUMN "reversal" text;--> statement-breakpoint
ALTER TABLE "installment_payments" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "dispute_ref" text;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "disputed_amount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "priced_for" date;--> statement-breakpoint
-- Charges made before this column quoted the Brasília day they were made on.
UPDATE "payment_charges" SET "priced_for" = ("created_at" AT TIME ZONE 'America/Sao_Paulo')::date;--> statement-breakpoint
ALTER TABLE "payment_charges" ALTER COLUMN "priced_for" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_charge_id_payment_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."payment_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_one_per_reason" ON "payment_refunds" USING btree ("charge_id","reason") WHERE reason <> 'PROVIDER';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_provider_ref" ON "payment_refunds" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "payment_refunds_open" ON "payment_refunds" USING btree ("created_at") WHERE status <> 'SUCCEEDED';