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
-- The counters follow every write of a sale in its own transaction. An update touching two rows
-- (old status, new status) takes their locks in key order, so two sales moving in opposite
-- directions at once cannot deadlock.
CREATE FUNCTION "sale_seller_counters_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.partner_id, OLD.creator, OLD.status, OLD.checkout_price_in_cents)
      IS NOT DISTINCT FROM (NEW.partner_id, NEW.creator, NEW.status, NEW.checkout_price_in_cents) THEN
    RETURN NULL;
  END IF;
  INSERT INTO sale_seller_counters AS c (partner_id, creator, status, sales, total_value)
  SELECT d.partner_id, d.creator, d.status, sum(d.sales), sum(d.total_value)
  FROM (
    SELECT OLD.partner_id, OLD.creator, OLD.status, -1, -OLD.checkout_price_in_cents WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT NEW.partner_id, NEW.creator, NEW.status, 1, NEW.checkout_price_in_cents WHERE TG_OP <> 'DELETE'
  ) AS d (partner_id, creator, status, sales, total_value)
  GROUP BY d.partner_id, d.creator, d.status
  ORDER BY d.partner_id, d.creator, d.status
  ON CONFLICT (partner_id, creator, status)
    DO UPDATE SET sales = c.sales + excluded.sales, total_value = c.total_value + excluded.total_value;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sales_seller_counters" AFTER INSERT OR DELETE OR UPDATE OF partner_id, creator, status, checkout_price_in_cents ON "sales"
  FOR EACH ROW EXECUTE FUNCTION "sale_seller_counters_follow"();
--> statement-breakpoint
INSERT INTO "sale_seller_counters" (partner_id, creator, status, sales, total_value)
SELECT partner_id, creator, status, count(*), sum(checkout_price_in_cents) FROM "sales" GROUP BY partner_id, creator, status;
