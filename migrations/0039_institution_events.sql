CREATE TABLE "institution_event_counters" (
	"institution_id" uuid PRIMARY KEY NOT NULL,
	"last_sequence" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institution_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"institution_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sequence" bigint NOT NULL,
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_send_budgets" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"refilled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_configurations" ALTER COLUMN "partner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "partner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_configurations" ADD COLUMN "institution_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "institution_id" uuid;--> statement-breakpoint
ALTER TABLE "institution_event_counters" ADD CONSTRAINT "institution_event_counters_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_events" ADD CONSTRAINT "institution_events_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "institution_events_sequence" ON "institution_events" USING btree ("institution_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "institution_events_once" ON "institution_events" USING btree ("institution_id","name","subject");--> statement-breakpoint
ALTER TABLE "webhook_configurations" ADD CONSTRAINT "webhook_configurations_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_configurations_institution_id_created_at_index" ON "webhook_configurations" USING btree ("institution_id","created_at");--> statement-breakpoint
ALTER TABLE "webhook_configurations" ADD CONSTRAINT "webhook_configurations_one_tenant" CHECK (num_nonnulls("webhook_configurations"."partner_id", "webhook_configurations"."institution_id") = 1);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_one_tenant" CHECK (num_nonnulls("webhook_deliveries"."partner_id", "webhook_deliveries"."institution_id") = 1);--> statement-breakpoint
-- The partners' buckets as they stand: a booking made before this migration keeps its place.
INSERT INTO "webhook_send_budgets" ("tenant_id", "tokens", "refilled_at") SELECT "partner_id", "tokens", "refilled_at" FROM "webhook_delivery_budgets";