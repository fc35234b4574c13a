-- Items are checked by the worker from the stored items: the text staged on arrival is no longer kept.
ALTER TABLE "batch_item_blocks" DROP COLUMN "staged_submissions";--> statement-breakpoint
ALTER TABLE "batch_item_blocks" DROP COLUMN "staged_rows";