import { sql } from 'drizzle-orm';
import type { components } from '../../generated/institution.js';
import type { AppContext } from '../context.js';
import { students } from '../db/schema/index.js';
import { findBatch, finishBatch, readItems, recordChunk, type ItemError } from './batches.js';
import { isValidCpf } from './documents.js';

export type Student = components['schemas']['Student'];

/** Students validated and written per transaction; a rerun resumes at the first unfinished chunk. */
export const STUDENT_CHUNK = 1_000;

/** Rules of one student that the envelope schema cannot express. */
export function checkStudent(index: number, student: Student): ItemError[] {
  const errors: ItemError[] = [];
  if (!student.cpf) errors.push({ index, field: 'cpf', message: 'cpf is required' });
  else if (!isValidCpf(student.cpf)) errors.push({ index, field: 'cpf', message: `cpf ${student.cpf} is not a valid CPF (11 digits with check digits)` });
  if (!student.nomeCompleto?.trim()) errors.push({ index, field: 'nomeCompleto', message: 'nomeCompleto is required' });
  return errors;
}

/**
 * Processes a student batch: valid students are upserted by institution + CPF (the last one of the
 * batch wins), invalid ones become item errors. Idempotent: each chunk commits with its progress.
 */
export async function processStudentBatch(ctx: AppContext, batchId: string): Promise<void> {
  const batch = await findBatch(ctx.db, batchId);
  if (!batch || batch.finishedAt) return;
  const resumeAt = batch.processedCount - (batch.processedCount % STUDENT_CHUNK);
  for (let start = resumeAt; start < batch.itemCount; start += STUDENT_CHUNK) {
    await ctx.db.transaction(async (tx) => {
      const items = await readItems(tx, batchId, start, start + STUDENT_CHUNK);
      const errors: ItemError[] = [];
      const byCpf = new Map<string, Student>();
      for (const item of items) {
        const student = item.payload as Student;
        const problems = checkStudent(item.index, student);
        if (problems.length > 0) errors.push(...problems);
        else byCpf.set(student.cpf!, student);
      }
      if (byCpf.size > 0) {
        const now = ctx.clock.now();
        await tx
          .insert(students)
          .values(
            [...byCpf.values()].map((s) => ({
              institutionId: batch.institutionId,
              cpf: s.cpf!,
              ra: s.ra ?? null,
              fullName: s.nomeCompleto!.trim(),
              data: s,
              lastBatchId: batchId,
              createdAt: now,
              updatedAt: now,
            })),
          )
          .onConflictDoUpdate({
            target: [students.institutionId, students.cpf],
            set: {
              ra: sql`excluded.ra`,
              fullName: sql`excluded.full_name`,
              data: sql`excluded.data`,
              lastBatchId: sql`excluded.last_batch_id`,
              updatedAt: sql`excluded.updated_at`,
            },
          });
      }
      await recordChunk(tx, batchId, Math.min(start + STUDENT_CHUNK, batch.itemCount), errors);
    });
  }
  await finishBatch(ctx.db, batchId, ctx.clock.now());
}
