-- The sales list filters by the transfer and due dates of its receipt: the sale columns nothing wrote go.
DROP INDEX "sales_partner_expected_payment";--> statement-breakpoint
DROP INDEX "sales_partner_ted";--> statement-breakpoint
DROP INDEX "sales_partner_next_payment";--> statement-breakpoint
ALTER TABLE "sales" DROP COLUMN "expected_payment_on";--> statement-breakpoint
ALTER TABLE "sales" DROP COLUMN "ted_on";--> statement-breakpoint
ALTER TABLE "sales" DROP COLUMN "next_payment_on";