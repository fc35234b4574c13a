DROP INDEX "sales_partner_created";--> statement-breakpoint
DROP INDEX "sales_partner_effective";--> statement-breakpoint
DROP INDEX "sales_partner_released";--> statement-breakpoint
DROP INDEX "sales_partner_expected_payment";--> statement-breakpoint
DROP INDEX "sales_partner_ted";--> statement-breakpoint
DROP INDEX "sales_partner_next_payment";--> statement-breakpoint
CREATE INDEX "sales_partner_created" ON "sales" USING btree ("partner_id","created_at","id","status","creator","checkout_price_in_cents");--> statement-breakpoint
CREATE INDEX "sales_partner_effective" ON "sales" USING btree ("partner_id","made_effective_at","id","status","creator","checkout_price_in_cents");--> statement-breakpoint
CREATE INDEX "sales_partner_released" ON "sales" USING btree ("partner_id","released_on","id","status","creator","checkout_price_in_cents");--> statement-breakpoint
CREATE INDEX "sales_partner_expected_payment" ON "sales" USING btree ("partner_id","expected_payment_on","id","status","creator","checkout_price_in_cents");--> statement-breakpoint
CREATE INDEX "sales_partner_ted" ON "sales" USING btree ("partner_id","ted_on","id","status","creator","checkout_price_in_cents");--> statement-breakpoint
CREATE INDEX "sales_partner_next_payment" ON "sales" USING btree ("partner_id","next_payment_on","id","status","creator","checkout_price_in_cents");