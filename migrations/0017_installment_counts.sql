CREATE TABLE "installment_counts" (
	"institution_id" uuid NOT NULL,
	"status" text NOT NULL,
	"type" text NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "installment_counts_institution_id_status_type_n_index" ON "installment_counts" USING btree ("institution_id","status","type","n");--> statement-breakpoint
CREATE FUNCTION installment_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO installment_counts (institution_id, status, type, n)
  SELECT institution_id, status, type, count(*) FROM inserted_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION installment_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most updates (payments, re-sent amounts) keep the group: their rows cancel out and nothing is written.
  INSERT INTO installment_counts (institution_id, status, type, n)
  SELECT institution_id, status, type, sum(n) FROM (
    SELECT institution_id, status, type, -1 AS n FROM old_rows
    UNION ALL
    SELECT institution_id, status, type, 1 AS n FROM new_rows
  ) AS changes GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION installment_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO installment_counts (institution_id, status, type, n)
  SELECT institution_id, status, type, -count(*) FROM deleted_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER installments_counted_insert AFTER INSERT ON installments
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION installment_counts_inserted();--> statement-breakpoint
CREATE TRIGGER installments_counted_update AFTER UPDATE ON installments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION installment_counts_updated();--> statement-breakpoint
CREATE TRIGGER installments_counted_delete AFTER DELETE ON installments
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION installment_counts_deleted();--> statement-breakpoint
LOCK TABLE installments IN SHARE MODE;--> statement-breakpoint
INSERT INTO installment_counts (institution_id, status, type, n)
SELECT institution_id, status, type, count(*) FROM installments GROUP BY 1, 2, 3;
