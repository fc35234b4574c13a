CREATE TABLE "receipt_counts" (
	"partner_id" uuid NOT NULL,
	"canceled" boolean NOT NULL,
	"receipts" bigint NOT NULL,
	CONSTRAINT "receipt_counts_partner_id_canceled_pk" PRIMARY KEY("partner_id","canceled")
);
--> statement-breakpoint
CREATE TABLE "receipt_summaries" (
	"sale_id" integer PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"made_effective_on" date NOT NULL,
	"canceled" boolean NOT NULL,
	"has_chargeback" boolean NOT NULL,
	"has_cancellation" boolean NOT NULL,
	"received_cents" bigint NOT NULL,
	"missing_cents" bigint NOT NULL,
	"expected_ted_cents" bigint NOT NULL,
	"paid_cents" bigint NOT NULL,
	"transfer_date" date,
	"expected_transfer_date" date,
	"installments" integer NOT NULL,
	"paid_installments" integer NOT NULL,
	"next_payment_date" date,
	"next_payment_installment_id" integer,
	"open_due_dates" date[] NOT NULL,
	"installment_value_cents" bigint,
	"agreement_date" date,
	"original_installment_value_cents" bigint,
	"original_installments" integer
);
--> statement-breakpoint
ALTER TABLE "receipt_installments" ADD COLUMN "replaced_on" date;--> statement-breakpoint
ALTER TABLE "receipt_summaries" ADD CONSTRAINT "receipt_summaries_sale_id_receipts_sale_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."receipts"("sale_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipt_summaries_partner_effective" ON "receipt_summaries" USING btree ("partner_id","made_effective_on","sale_id");--> statement-breakpoint
CREATE INDEX "receipt_summaries_partner_canceled" ON "receipt_summaries" USING btree ("partner_id","canceled","made_effective_on","sale_id");--> statement-breakpoint
CREATE INDEX "receipt_summaries_partner_chargebacks" ON "receipt_summaries" USING btree ("partner_id","made_effective_on","sale_id") WHERE "receipt_summaries"."has_chargeback";--> statement-breakpoint
CREATE INDEX "receipt_summaries_partner_cancellations" ON "receipt_summaries" USING btree ("partner_id","made_effective_on","sale_id") WHERE "receipt_summaries"."has_cancellation";--> statement-breakpoint
CREATE INDEX "receipt_summaries_partner_next_payment" ON "receipt_summaries" USING btree ("partner_id","next_payment_date");--> statement-breakpoint
CREATE INDEX "receipt_summaries_partner_expected_transfer" ON "receipt_summaries" USING btree ("partner_id","expected_transfer_date");--> statement-breakpoint
CREATE INDEX "receipt_summaries_partner_transfer" ON "receipt_summaries" USING btree ("partner_id","transfer_date");
