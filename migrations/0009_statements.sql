CREATE TABLE "institution_contract_versions" (
	"institution_id" uuid NOT NULL,
	"effective_from" date NOT NULL,
	"product" text NOT NULL,
	"commission_percent" numeric(5, 2) NOT NULL,
	"guaranteed_percent" numeric(5, 2),
	"first_transfer_percent" numeric(5, 2),
	"first_transfer_day" integer,
	"second_transfer_day" integer,
	"transfer_delay_days" integer DEFAULT 0 NOT NULL,
	"transfer_allocation" text,
	"guarantee_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "institution_contract_versions_institution_id_effective_from_pk" PRIMARY KEY("institution_id","effective_from")
);
--> statement-breakpoint
CREATE TABLE "installment_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"closing_id" uuid NOT NULL,
	"institution_id" uuid NOT NULL,
	"installment_id" uuid NOT NULL,
	"month" date NOT NULL,
	"external_id" text NOT NULL,
	"assigned" boolean NOT NULL,
	"guarantee_type" text NOT NULL,
	"allocation" text NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"on_time_value" numeric(14, 2) NOT NULL,
	"commission_percent" numeric(5, 2) NOT NULL,
	"commission_value" numeric(14, 2) NOT NULL,
	"guaranteed_value" numeric(14, 2) NOT NULL,
	"first_transfer_value" numeric(14, 2) NOT NULL,
	"second_transfer_value" numeric(14, 2) NOT NULL,
	"first_transfer_on" date NOT NULL,
	"second_transfer_on" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_closing_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"closing_id" uuid NOT NULL,
	"action" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"assignments" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_closings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"institution_id" uuid NOT NULL,
	"month" date NOT NULL,
	"status" text NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"reopenings" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "card_installments" integer;--> statement-breakpoint
ALTER TABLE "institution_contract_versions" ADD CONSTRAINT "institution_contract_versions_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installment_assignments" ADD CONSTRAINT "installment_assignments_closing_id_statement_closings_id_fk" FOREIGN KEY ("closing_id") REFERENCES "public"."statement_closings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installment_assignments" ADD CONSTRAINT "installment_assignments_installment_id_installments_id_fk" FOREIGN KEY ("installment_id") REFERENCES "public"."installments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_closing_events" ADD CONSTRAINT "statement_closing_events_closing_id_statement_closings_id_fk" FOREIGN KEY ("closing_id") REFERENCES "public"."statement_closings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_closings" ADD CONSTRAINT "statement_closings_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "installment_assignments_closing_id_installment_id_index" ON "installment_assignments" USING btree ("closing_id","installment_id");--> statement-breakpoint
CREATE INDEX "installment_assignments_institution_id_month_external_id_installment_id_index" ON "installment_assignments" USING btree ("institution_id","month","external_id","installment_id");--> statement-breakpoint
CREATE INDEX "statement_closing_events_closing_id_index" ON "statement_closing_events" USING btree ("closing_id");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_closings_institution_id_month_index" ON "statement_closings" USING btree ("institution_id","month");--> statement-breakpoint
-- Contracts made before versions existed become the version in force since always.
INSERT INTO "institution_contract_versions" ("institution_id", "effective_from", "product", "commission_percent", "guaranteed_percent", "first_transfer_percent", "first_transfer_day", "second_transfer_day")
SELECT "institution_id", DATE '1900-01-01', "product", "commission_percent", "guaranteed_percent", "first_transfer_percent", "first_transfer_days", "second_transfer_days"
FROM "institution_contracts";
