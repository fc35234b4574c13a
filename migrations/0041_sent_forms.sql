CREATE TABLE "sent_forms" (
	"form_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"result" jsonb NOT NULL,
	"sealed_secret" text,
	"secret_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sent_forms" ADD CONSTRAINT "sent_forms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sent_forms_issued_at_index" ON "sent_forms" USING btree ("issued_at");--> statement-breakpoint
CREATE INDEX "sent_forms_secret_until_index" ON "sent_forms" USING btree ("secret_until");