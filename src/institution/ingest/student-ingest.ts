import { sql } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { isValidCpf } from '../../core/documents.js';
import type { ItemError } from '../../core/item-error.js';
import { storableDate } from '../../core/storable-values.js';
import { students } from '../../db/schema/index.js';
import { readItems } from '../intake/batches.js';
import { type ChunkProcessor, processBatch, type ProcessOptions } from './batch-processing.js';

export type Student = components['schemas']['Student'];

/** Longest `ra` and `nomeCompleto`, as for the ids and names of installments. */
export const MAX_STUDENT_TEXT = 255;

/** Rules of one student that the envelope schema cannot express. */
export function checkStudent(index: number, student: Student): ItemError[] {
  const errors: ItemError[] = [];
  if (!student.cpf) errors.push({ index, field: 'cpf', message: 'cpf is required' });
  else if (!isValidCpf(student.cpf))
    errors.push({
      index,
      field: 'cpf',
      message: `cpf ${student.cpf.slice(0, 20)} is not a valid CPF (11 digits with check digits)`,
    });
  if (!student.nomeCompleto?.trim()) errors.push({ index, field: 'nomeCompleto', message: 'nomeCompleto is required' });
  for (const field of ['nomeCompleto', 'ra'] as const) {
    if ((student[field]?.length ?? 0) > MAX_STUDENT_TEXT)
      errors.push({ index, field, message: `must NOT have more than ${MAX_STUDENT_TEXT} characters` });
  }
  checkDate(index, 'dataNascimento', student.dataNascimento, errors);
  checkDate(index, 'responsavelFinanceiro.dataNascimento', student.responsavelFinanceiro?.dataNascimento, errors);
  return errors;
}

function checkDate(index: number, field: string, value: string | undefined, errors: ItemError[]): void {
  if (value !== undefined && !storableDate(value))
    errors.push({ index, field, message: `${field} ${value} is not a real date` });
}

/** Valid students are upserted by institution + CPF (the last one of the batch wins). */
const studentChunks = (ctx: AppContext): ChunkProcessor<{ index: number; payload: unknown }[]> => ({
  chunkSize: 1_000,
  prepare: (batch, from, to) => readItems(ctx.db, batch.id, from, to),
  async processChunk({ tx, batch, prepared: items, prepareNext }) {
    prepareNext();
    const errors: ItemError[] = [];
    const byCpf = new Map<string, Student>();
    for (const item of items) {
      // Null: refused when received (see `jsonItems`), its item error recorded then.
      if (item.payload === null) continue;
      const student = item.payload as Student;
      const problems = checkStudent(item.index, student);
      if (problems.length > 0) errors.push(...problems);
      else byCpf.set(student.cpf!, student);
    }
    if (byCpf.size === 0) return errors;
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
          lastBatchId: batch.id,
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
    return errors;
  },
});

/** Processes a student batch; invalid students become item errors. */
export function processStudentBatch(ctx: AppContext, batchId: string, options?: ProcessOptions): Promise<void> {
  return processBatch(ctx, batchId, studentChunks(ctx), options);
}
