CREATE TABLE "payment_provider_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"charge_id" uuid,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_provider_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "provider_ref" text;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "pix_qr_image_url" text;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "voucher_url" text;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "unapplied_reason" text;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_provider_events" ADD CONSTRAINT "payment_provider_events_charge_id_payment_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."payment_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_provider_events_charge_id_index" ON "payment_provider_events" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_charges_provider_ref" ON "payment_charges" USING btree ("provider","provider_ref");--> statement-breakpoint
CREATE INDEX "payment_charges_pending" ON "payment_charges" USING btree ("provider","checked_at") WHERE status = 'PENDING';