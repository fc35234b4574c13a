-- Blocks stored so far are raw deflate; new blocks state their encoding (no default from now on).
ALTER TABLE "batch_item_blocks" ADD COLUMN "encoding" text DEFAULT 'deflate' NOT NULL;--> statement-breakpoint
ALTER TABLE "batch_item_blocks" ALTER COLUMN "encoding" DROP DEFAULT;
