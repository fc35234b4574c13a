-- Every block records where its items lie since 0022; no deployment holds a block written before it.
ALTER TABLE "batch_item_blocks" ALTER COLUMN "item_spans" SET NOT NULL;