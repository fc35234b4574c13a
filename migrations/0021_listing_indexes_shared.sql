DROP INDEX "installments_status_seq_idx";--> statement-breakpoint
DROP INDEX "installments_type_seq_idx";--> statement-breakpoint
DROP INDEX "installments_guarantor_seq_idx";--> statement-breakpoint
-- uuidv7() arrived in PostgreSQL 18 (the embedded server); an older server keeps random ids.
DO $$
BEGIN
  IF current_setting('server_version_num')::int >= 180000 THEN
    ALTER TABLE "installments" ALTER COLUMN "id" SET DEFAULT uuidv7();
  END IF;
END $$;--> statement-breakpoint
CREATE INDEX "installments_status_type_seq_idx" ON "installments" USING btree ("institution_id","status","type","seq");--> statement-breakpoint
CREATE INDEX "installments_guarantor_seq_idx" ON "installments" USING btree ("institution_id","guarantor_document","seq") WHERE guarantor_document <> student_cpf;--> statement-breakpoint
-- Room in each page for re-sent installments: an update whose new version fits in its page and
-- changes no indexed column writes no index entry (a heap-only tuple). Pages written from now on.
ALTER TABLE "installments" SET (fillfactor = 70);
