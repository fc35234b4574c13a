CREATE TABLE "partner_commissions" (
	"partner_id" uuid NOT NULL,
	"product_type" text NOT NULL,
	"percentage" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_commissions_partner_id_product_type_pk" PRIMARY KEY("partner_id","product_type"),
	CONSTRAINT "partner_commissions_percentage" CHECK ("partner_commissions"."percentage" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "receipt_adjustments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "receipt_adjustments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sale_id" integer NOT NULL,
	"kind" text NOT NULL,
	"occurred_on" date NOT NULL,
	"value_cents" bigint NOT NULL,
	"reason" text,
	CONSTRAINT "receipt_adjustments_kind" CHECK ("receipt_adjustments"."kind" in ('chargeback', 'cancellation'))
);
--> statement-breakpoint
CREATE TABLE "receipt_installments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "receipt_installments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sale_id" integer NOT NULL,
	"number" integer NOT NULL,
	"value_cents" bigint NOT NULL,
	"due_on" date NOT NULL,
	"agreement_on" date
);
--> statement-breakpoint
CREATE TABLE "receipt_payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "receipt_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"installment_id" integer NOT NULL,
	"paid_on" date NOT NULL,
	"value_cents" bigint NOT NULL,
	"method" text NOT NULL,
	"expected_compensation_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_transfers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "receipt_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"installment_id" integer NOT NULL,
	"expected_on" date NOT NULL,
	"made_on" date,
	"method" text DEFAULT 'TED' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"sale_id" integer PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"commission_percentage" integer NOT NULL,
	"made_effective_on" date NOT NULL,
	"has_upfront" boolean NOT NULL,
	"financed_installments" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_commissions" ADD CONSTRAINT "partner_commissions_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_adjustments" ADD CONSTRAINT "receipt_adjustments_sale_id_receipts_sale_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."receipts"("sale_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_installments" ADD CONSTRAINT "receipt_installments_sale_id_receipts_sale_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."receipts"("sale_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_payments" ADD CONSTRAINT "receipt_payments_installment_id_receipt_installments_id_fk" FOREIGN KEY ("installment_id") REFERENCES "public"."receipt_installments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_transfers" ADD CONSTRAINT "receipt_transfers_installment_id_receipt_installments_id_fk" FOREIGN KEY ("installment_id") REFERENCES "public"."receipt_installments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipt_adjustments_sale" ON "receipt_adjustments" USING btree ("sale_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_installments_sale_number" ON "receipt_installments" USING btree ("sale_id","number");--> statement-breakpoint
CREATE INDEX "receipt_installments_due" ON "receipt_installments" USING btree ("due_on","sale_id");--> statement-breakpoint
CREATE INDEX "receipt_payments_installment" ON "receipt_payments" USING btree ("installment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_transfers_installment" ON "receipt_transfers" USING btree ("installment_id");--> statement-breakpoint
CREATE INDEX "receipts_partner_effective" ON "receipts" USING btree ("partner_id","made_effective_on","sale_id");--> statement-breakpoint
-- Request counts of the receipts rate limit, shared by every API process; losing them in a crash only resets the counts.
CREATE UNLOGGED TABLE "rate_limit_windows" (
	"ip" text NOT NULL,
	"window_start" bigint NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_pk" PRIMARY KEY ("ip", "window_start")
);--> statement-breakpoint
CREATE INDEX "rate_limit_windows_start" ON "rate_limit_windows" USING btree ("window_start");

