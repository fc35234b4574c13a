ALTER TABLE "installment_assignments" ALTER COLUMN "first_transfer_on" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "installment_assignments" ALTER COLUMN "second_transfer_on" DROP NOT NULL;--> statement-breakpoint
-- Installments not assigned carry nothing guaranteed: no commission percentage and no transfer dates.
UPDATE "installment_assignments" SET "commission_percent" = 0, "first_transfer_on" = NULL, "second_transfer_on" = NULL WHERE NOT "assigned";