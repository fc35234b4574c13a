CREATE TABLE "sale_seller_counters" (
	"partner_id" uuid NOT NULL,
	"creator" text NOT NULL,
	"status" text NOT NULL,
	"sales" bigint NOT NULL,
	"total_value" bigint NOT NULL,
	CONSTRAINT "sale_seller_counters_partner_id_creator_status_pk" PRIMARY KEY("partner_id","creator","status")
);
--> statement-breakpoint
ALTER TABLE "sale_seller_counters" ADD CONSTRAINT "sale_seller_counters_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_partner_cpf" ON "sales" USING btree ("partner_id","cpf","id");--> statement-breakpoint
-- The counters follow every write of sales, in the writing transaction, once per statement: the
-- rows a statement changed are netted per (partner, creator, status), so a bulk insert costs one
-- grouped upsert and an update that changes none of these columns touches no counter. Counter
-- rows are locked in key order, so two sales moving in opposite directions at once cannot deadlock.
CREATE FUNCTION "sale_seller_counters_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO sale_seller_counters AS c (partner_id, creator, status, sales, total_value)
    SELECT partner_id, creator, status, count(*), sum(checkout_price_in_cents) FROM new_sales
    GROUP BY partner_id, creator, status ORDER BY partner_id, creator, status
    ON CONFLICT (partner_id, creator, status) DO UPDATE SET sales = c.sales + excluded.sales, total_value = c.total_value + excluded.total_value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO sale_seller_counters AS c (partner_id, creator, status, sales, total_value)
    SELECT partner_id, creator, status, -count(*), -sum(checkout_price_in_cents) FROM old_sales
    GROUP BY partner_id, creator, status ORDER BY partner_id, creator, status
    ON CONFLICT (partner_id, creator, status) DO UPDATE SET sales = c.sales + excluded.sales, total_value = c.total_value + excluded.total_value;
  ELSE
    INSERT INTO sale_seller_counters AS c (partner_id, creator, status, sales, total_value)
    SELECT partner_id, creator, status, sum(n), sum(v)
    FROM (
      SELECT partner_id, creator, status, -1 AS n, -checkout_price_in_cents AS v FROM old_sales
      UNION ALL
      SELECT partner_id, creator, status, 1, checkout_price_in_cents FROM new_sales
    ) AS moved
    GROUP BY partner_id, creator, status HAVING sum(n) <> 0 OR sum(v) <> 0 ORDER BY partner_id, creator, status
    ON CONFLICT (partner_id, creator, status) DO UPDATE SET sales = c.sales + excluded.sales, total_value = c.total_value + excluded.total_value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sales_seller_counters_insert" AFTER INSERT ON "sales" REFERENCING NEW TABLE AS new_sales
  FOR EACH STATEMENT EXECUTE FUNCTION "sale_seller_counters_follow"();
--> statement-breakpoint
CREATE TRIGGER "sales_seller_counters_update" AFTER UPDATE ON "sales" REFERENCING OLD TABLE AS old_sales NEW TABLE AS new_sales
  FOR EACH STATEMENT EXECUTE FUNCTION "sale_seller_counters_follow"();
--> statement-breakpoint
CREATE TRIGGER "sales_seller_counters_delete" AFTER DELETE ON "sales" REFERENCING OLD TABLE AS old_sales
  FOR EACH STATEMENT EXECUTE FUNCTION "sale_seller_counters_follow"();
--> statement-breakpoint
INSERT INTO "sale_seller_counters" (partner_id, creator, status, sales, total_value)
SELECT partner_id, creator, status, count(*), sum(checkout_price_in_cents) FROM "sales" GROUP BY partner_id, creator, status;
