CREATE TABLE "people" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "people_email_lower" CHECK ("people"."email" = lower("people"."email"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "people_email" ON "people" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "people_id_email" ON "people" USING btree ("id","email");--> statement-breakpoint
-- One person per distinct e-mail, with the password of its active user (else of its latest one).
INSERT INTO "people" ("email", "password_hash", "password_changed_at", "created_at")
SELECT DISTINCT ON ("email") "email", "password_hash", "password_changed_at", "created_at"
FROM "users"
ORDER BY "email", ("removed_at" is null) DESC, "created_at" DESC;--> statement-breakpoint
DROP INDEX "users_active_email";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "person_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" SET
	"person_id" = (SELECT "p"."id" FROM "people" "p" WHERE "p"."email" = "users"."email"),
	"accepted_at" = CASE WHEN "password_hash" IS NOT NULL THEN coalesce("password_changed_at", "created_at") END;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "person_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_sessions" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "user_sessions" ADD COLUMN "person_id" uuid;--> statement-breakpoint
UPDATE "user_sessions" SET "person_id" = (SELECT "u"."person_id" FROM "users" "u" WHERE "u"."id" = "user_sessions"."user_id");--> statement-breakpoint
ALTER TABLE "user_sessions" ALTER COLUMN "person_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_person_email" FOREIGN KEY ("person_id","email") REFERENCES "public"."people"("id","email") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_active_partner_email" ON "users" USING btree ("partner_id","email") WHERE "users"."removed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_active_institution_email" ON "users" USING btree ("institution_id","email") WHERE "users"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "users_person_id_index" ON "users" USING btree ("person_id");--> statement-breakpoint
CREATE INDEX "user_sessions_person_id_index" ON "user_sessions" USING btree ("person_id");--> statement-breakpoint
ALTER TABLE "user_links" ADD COLUMN "shown" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "password_hash";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "password_changed_at";
