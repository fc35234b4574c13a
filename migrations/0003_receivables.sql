CREATE TABLE "institution_contracts" (
	"institution_id" uuid PRIMARY KEY NOT NULL,
	"product" text DEFAULT 'Gestão' NOT NULL,
	"commission_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"guaranteed_percent" numeric(5, 2),
	"first_transfer_percent" numeric(5, 2),
	"first_transfer_days" integer,
	"second_transfer_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "installments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "installments_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"institution_id" uuid NOT NULL,
	"upsert_key" text NOT NULL,
	"external_id" text,
	"batch_id" uuid NOT NULL,
	"batch_seq" bigint NOT NULL,
	"item_index" integer NOT NULL,
	"student_cpf" text NOT NULL,
	"student_ra" text,
	"student_name" text,
	"guarantor_document" text NOT NULL,
	"guarantor_document_type" text NOT NULL,
	"contract_number" text,
	"number" text,
	"type" text NOT NULL,
	"course_name" text,
	"campus_name" text,
	"due_date" date NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"on_time_value" numeric(14, 2) NOT NULL,
	"on_time_discounts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"product" text NOT NULL,
	"status" text NOT NULL,
	"payment_type" text,
	"paid_on" date,
	"balance" numeric(14, 2) NOT NULL,
	"settled_fine" numeric(14, 2) DEFAULT '0' NOT NULL,
	"settled_interest" numeric(14, 2) DEFAULT '0' NOT NULL,
	"settled_discount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"settled_received" numeric(14, 2) DEFAULT '0' NOT NULL,
	"paid_on_platform" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_item_blocks" (
	"batch_id" uuid NOT NULL,
	"first_index" integer NOT NULL,
	"item_count" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "batch_item_blocks_batch_id_first_index_pk" PRIMARY KEY("batch_id","first_index")
);
--> statement-breakpoint
CREATE TABLE "installment_submissions" (
	"batch_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"errors" jsonb,
	"applies" boolean NOT NULL,
	"upsert_key" text,
	"external_id" text,
	"student_cpf" text,
	"student_ra" text,
	"student_name" text,
	"guarantor_document" text,
	"guarantor_document_type" text,
	"contract_number" text,
	"number" text,
	"type" text,
	"course_name" text,
	"campus_name" text,
	"due_date" date,
	"principal" numeric(14, 2),
	"on_time_value" numeric(14, 2),
	"on_time_discounts" jsonb,
	"status" text,
	"payment_type" text,
	"paid_on" date,
	"balance" numeric(14, 2),
	"settled_fine" numeric(14, 2),
	"settled_interest" numeric(14, 2),
	"settled_discount" numeric(14, 2),
	"settled_received" numeric(14, 2),
	"sent_student_cpf" text,
	"sent_guarantor_document" text,
	"sent_external_id" text,
	"sent_type_lower" text,
	"sent_settlement_lower" text,
	"sent_due_day" text,
	"sent_course_code" text,
	"sent_course_name" text,
	"sent_course_degree" text,
	"sent_course_modality" text,
	"sent_organization_name" text,
	"sent_campus_name" text,
	"sent_campus_id" text,
	CONSTRAINT "installment_submissions_batch_id_index_pk" PRIMARY KEY("batch_id","index")
);
--> statement-breakpoint
CREATE TABLE "installment_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"installment_id" uuid NOT NULL,
	"charge_id" uuid NOT NULL,
	"method" text NOT NULL,
	"paid_on" date NOT NULL,
	"received" numeric(14, 2) NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"fine" numeric(14, 2) NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"discount" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"paid_amount_cents" bigint,
	"description" text NOT NULL,
	"payer_name" text,
	"payer_document" text NOT NULL,
	"reference_kind" text NOT NULL,
	"reference_id" uuid NOT NULL,
	"pix_code" text,
	"digitable_line" text,
	"card_brand" text,
	"card_last_four" text,
	"declined_reason" text,
	"expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"institution_id" uuid NOT NULL,
	"installment_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "batches_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "institution_contracts" ADD CONSTRAINT "institution_contracts_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_item_blocks" ADD CONSTRAINT "batch_item_blocks_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installment_submissions" ADD CONSTRAINT "installment_submissions_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installment_payments" ADD CONSTRAINT "installment_payments_installment_id_installments_id_fk" FOREIGN KEY ("installment_id") REFERENCES "public"."installments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installment_payments" ADD CONSTRAINT "installment_payments_charge_id_payment_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."payment_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_installment_id_installments_id_fk" FOREIGN KEY ("installment_id") REFERENCES "public"."installments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "installments_institution_id_upsert_key_index" ON "installments" USING btree ("institution_id","upsert_key");--> statement-breakpoint
CREATE INDEX "installments_institution_id_seq_index" ON "installments" USING btree ("institution_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "installment_payments_charge_id_index" ON "installment_payments" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "installment_payments_installment_id_index" ON "installment_payments" USING btree ("installment_id");--> statement-breakpoint
CREATE INDEX "payment_charges_reference_kind_reference_id_index" ON "payment_charges" USING btree ("reference_kind","reference_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_token_index" ON "payment_links" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_installment_id_index" ON "payment_links" USING btree ("installment_id");--> statement-breakpoint
CREATE INDEX "batches_institution_id_kind_seq_index" ON "batches" USING btree ("institution_id","kind","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "batches_institution_id_idempotency_key_index" ON "batches" USING btree ("institution_id","idempotency_key");