CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_kind" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"record_id" text NOT NULL,
	"statement" text,
	"amount_cents" bigint NOT NULL,
	"commission_cents" bigint NOT NULL,
	"net_cents" bigint NOT NULL,
	"principal_cents" bigint NOT NULL,
	"fine_cents" bigint DEFAULT 0 NOT NULL,
	"interest_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"moved_on" date NOT NULL,
	"period" date NOT NULL,
	"transfer_on" date,
	"commission_percent" numeric(5, 2),
	"allocation" text,
	"management_type" text,
	"product" text,
	"external_id" text,
	"due_on" date,
	"due_month" date,
	"installment_principal_cents" bigint,
	"settlement" text,
	"means" text,
	"card_installment" integer,
	"card_installments" integer,
	"reverses_id" bigint,
	"cause" text NOT NULL,
	"installment_id" uuid,
	"payment_id" uuid,
	"charge_id" uuid,
	"refund_id" uuid,
	"dispute_ref" text,
	"sale_id" integer,
	"closing_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_tenant_kind" CHECK ("ledger_entries"."tenant_kind" in ('institution', 'partner')),
	CONSTRAINT "ledger_entries_parts" CHECK ("ledger_entries"."amount_cents" = "ledger_entries"."principal_cents" + "ledger_entries"."fine_cents" + "ledger_entries"."interest_cents" - "ledger_entries"."discount_cents"),
	CONSTRAINT "ledger_entries_period_first_day" CHECK (extract(day from "ledger_entries"."period") = 1)
);
--> statement-breakpoint
ALTER TABLE "installment_payments" ADD COLUMN "received_on" date;--> statement-breakpoint
ALTER TABLE "installment_payments" ADD COLUMN "records" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "installment_payments" ADD COLUMN "records_booked" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "installment_payments" ADD COLUMN "settled_in_full" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_reverses_id_ledger_entries_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_record" ON "ledger_entries" USING btree ("tenant_id","record_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_period" ON "ledger_entries" USING btree ("tenant_id","period");--> statement-breakpoint
CREATE INDEX "ledger_entries_moved" ON "ledger_entries" USING btree ("moved_on");--> statement-breakpoint
CREATE INDEX "ledger_entries_payment" ON "ledger_entries" USING btree ("payment_id") WHERE "ledger_entries"."payment_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_installment" ON "ledger_entries" USING btree ("installment_id") WHERE "ledger_entries"."installment_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_sale" ON "ledger_entries" USING btree ("sale_id") WHERE "ledger_entries"."sale_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_cause" ON "ledger_entries" USING btree ("cause");--> statement-breakpoint
CREATE INDEX "ledger_entries_reverses" ON "ledger_entries" USING btree ("reverses_id") WHERE "ledger_entries"."reverses_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_closing" ON "ledger_entries" USING btree ("closing_id") WHERE "ledger_entries"."closing_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_management" ON "ledger_entries" USING btree ("tenant_id","transfer_on","record_id") WHERE "ledger_entries"."statement" = 'gestao';--> statement-breakpoint
CREATE INDEX "ledger_entries_management_due_month" ON "ledger_entries" USING btree ("tenant_id","due_month","transfer_on","record_id") WHERE "ledger_entries"."statement" = 'gestao';--> statement-breakpoint
CREATE INDEX "installment_payments_to_book" ON "installment_payments" USING btree (("received_on" + 30 * "records_booked")) WHERE "installment_payments"."records_booked" < "installment_payments"."records";