CREATE INDEX "installments_student_cpf_seq_idx" ON "installments" USING btree ("institution_id","student_cpf","seq");--> statement-breakpoint
CREATE INDEX "installments_guarantor_seq_idx" ON "installments" USING btree ("institution_id","guarantor_document","seq");--> statement-breakpoint
CREATE INDEX "installments_status_seq_idx" ON "installments" USING btree ("institution_id","status","seq");--> statement-breakpoint
CREATE INDEX "installments_type_seq_idx" ON "installments" USING btree ("institution_id","type","seq");--> statement-breakpoint
CREATE INDEX "installments_due_date_idx" ON "installments" USING btree ("institution_id","due_date");--> statement-breakpoint
CREATE INDEX "installments_paid_on_idx" ON "installments" USING btree ("institution_id","paid_on") WHERE paid_on is not null;--> statement-breakpoint
CREATE INDEX "installments_paid_days_late_idx" ON "installments" USING btree ("institution_id",(paid_on - due_date)) WHERE status = 'PAGO';--> statement-breakpoint
CREATE INDEX "installment_submissions_student_cpf_idx" ON "installment_submissions" USING btree ("sent_student_cpf");