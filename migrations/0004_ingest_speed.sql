ALTER TABLE "installment_submissions" DROP CONSTRAINT "installment_submissions_batch_id_batches_id_fk";
