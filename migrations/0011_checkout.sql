CREATE TABLE "checkout_activity" (
	"sale_id" integer PRIMARY KEY NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_charges" ALTER COLUMN "reference_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "sale_id" integer;--> statement-breakpoint
ALTER TABLE "checkout_activity" ADD CONSTRAINT "checkout_activity_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_activity_last" ON "checkout_activity" USING btree ("last_activity_at");--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_charges_sale" ON "payment_charges" USING btree ("sale_id","created_at");--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_one_reference" CHECK (num_nonnulls("payment_charges"."reference_id", "payment_charges"."sale_id") = 1 and ("payment_charges"."sale_id" is null) = ("payment_charges"."reference_kind" <> 'sale'));