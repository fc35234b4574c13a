-- Rate-limit counters of several policies in one table: the receipts' requests per IP, card attempts per payment page and per IP.
ALTER TABLE "rate_limit_windows" RENAME COLUMN "ip" TO "key";--> statement-breakpoint
ALTER TABLE "rate_limit_windows" ADD COLUMN "policy" text DEFAULT 'receipts' NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limit_windows" ALTER COLUMN "policy" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "rate_limit_windows" DROP CONSTRAINT "rate_limit_windows_pk";--> statement-breakpoint
ALTER TABLE "rate_limit_windows" ADD CONSTRAINT "rate_limit_windows_pk" PRIMARY KEY ("policy", "key", "window_start");--> statement-breakpoint
DROP INDEX "rate_limit_windows_start";--> statement-breakpoint
CREATE INDEX "rate_limit_windows_start" ON "rate_limit_windows" USING btree ("policy", "window_start");
