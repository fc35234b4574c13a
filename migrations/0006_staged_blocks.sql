ALTER TABLE "batch_item_blocks" ADD COLUMN "staged_submissions" "bytea";--> statement-breakpoint
ALTER TABLE "batch_item_blocks" ADD COLUMN "staged_rows" "bytea";