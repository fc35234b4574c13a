CREATE TABLE "legacy_webhook_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"version" text NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legacy_webhook_configurations_version" CHECK ("legacy_webhook_configurations"."version" in ('1.0', '2.0'))
);
--> statement-breakpoint
CREATE TABLE "legacy_webhook_dispatches" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"configuration_id" uuid,
	"version" text NOT NULL,
	"url" text NOT NULL,
	"body" text NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"sends" integer DEFAULT 0 NOT NULL,
	"manual_retries" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"delivery_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"response_body" text
);
--> statement-breakpoint
CREATE TABLE "webhook_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"enabled_events" text[] NOT NULL,
	"authorization_token" text,
	"active" boolean DEFAULT true NOT NULL,
	"signing_secret" text,
	"previous_signing_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"configuration_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_name" text NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"body" text NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"redelivery_of" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts_made" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status" CHECK ("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "legacy_webhook_configurations" ADD CONSTRAINT "legacy_webhook_configurations_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legacy_webhook_dispatches" ADD CONSTRAINT "legacy_webhook_dispatches_configuration_id_legacy_webhook_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."legacy_webhook_configurations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_configurations" ADD CONSTRAINT "webhook_configurations_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_configuration_id_webhook_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."webhook_configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legacy_webhook_configurations_partner_id_index" ON "legacy_webhook_configurations" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "legacy_webhook_dispatches_partner_id_index" ON "legacy_webhook_dispatches" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_attempts_number_key" ON "webhook_attempts" USING btree ("delivery_id","number");--> statement-breakpoint
CREATE INDEX "webhook_configurations_partner_id_created_at_index" ON "webhook_configurations" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_key" ON "webhook_deliveries" USING btree ("configuration_id","event_id") WHERE "webhook_deliveries"."redelivery_of" is null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_configuration_id_created_at_index" ON "webhook_deliveries" USING btree ("configuration_id","created_at");