DROP INDEX "course_classes_course_sku";--> statement-breakpoint
CREATE UNIQUE INDEX "course_classes_course_sku_price" ON "course_classes" USING btree ("course_id","partner_sku","price_in_cents");