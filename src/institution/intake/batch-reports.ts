import { and, asc, count, eq, sql } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import {
  carriedTotal,
  type ContinuationScope,
  decodeContinuation,
  encodeContinuation,
  PAGE_SIZE,
  toPage,
} from '../../core/continuation.js';
import { preparedPerHandle } from '../../db/prepared.js';
import { batchItemErrors } from '../../db/schema/index.js';
import { jobKeys } from '../../queue/job-keys.js';
import { type FailedJob, lastFailure } from '../../queue/job-reads.js';
import { type Batch, requireBatch } from './batches.js';

type BatchView = components['schemas']['Batch'];
type BatchErrorPage = components['schemas']['BatchErrorPage'];

export const toBatchView = (batch: Batch, failed: FailedJob | undefined): BatchView => ({
  id: batch.id,
  tipo: batch.kind as BatchView['tipo'],
  status: batch.status as BatchView['status'],
  quantidade: batch.itemCount,
  processados: batch.processedCount,
  erros: batch.errorCount,
  criadoEm: batch.createdAt.toISOString(),
  finalizadoEm: batch.finishedAt?.toISOString() ?? null,
  ...(failed && !batch.finishedAt
    ? {
        ultimaFalha: {
          em: failed.failedAt.toISOString(),
          tentativas: failed.attempts,
          proximaTentativa: failed.nextAttemptAt.toISOString(),
        },
      }
    : {}),
});

export async function getBatch(ctx: AppContext, institutionId: string, batchId: string): Promise<BatchView> {
  const batch = await requireBatch(ctx.db, institutionId, batchId);
  return toBatchView(batch, batch.finishedAt ? undefined : await lastFailure(ctx.db, jobKeys.batch(batchId)));
}

/** [item index, field, totalItems counted on the first page]; no total from older tokens. */
const isErrorPosition = (p: unknown[]): p is [number, string] | [number, string, number] =>
  (p.length === 2 || (p.length === 3 && Number.isSafeInteger(p[2]))) &&
  Number.isInteger(p[0]) &&
  typeof p[1] === 'string';

// Prepared once per handle (`db/prepared.ts`); a first page starts before every position.
const errorsAfter = preparedPerHandle((db) =>
  db
    .select()
    .from(batchItemErrors)
    .where(
      and(
        eq(batchItemErrors.batchId, sql.placeholder('batchId')),
        sql`(${batchItemErrors.itemIndex}, ${batchItemErrors.field}) > (${sql.placeholder('index')}::int, ${sql.placeholder('field')}::text)`,
      ),
    )
    .orderBy(asc(batchItemErrors.itemIndex), asc(batchItemErrors.field))
    .limit(PAGE_SIZE + 1)
    .prepare('batch_errors_page'),
);
const errorCount = preparedPerHandle((db) =>
  db
    .select({ n: count() })
    .from(batchItemErrors)
    .where(eq(batchItemErrors.batchId, sql.placeholder('batchId')))
    .prepare('batch_errors_count'),
);

// The panel's filter by field: a page of the errors of one field (read through the primary key's
// batch prefix, then filtered; a batch holds at most 10,000 items).
const fieldErrorsAfter = preparedPerHandle((db) =>
  db
    .select()
    .from(batchItemErrors)
    .where(
      and(
        eq(batchItemErrors.batchId, sql.placeholder('batchId')),
        eq(batchItemErrors.field, sql.placeholder('only')),
        sql`(${batchItemErrors.itemIndex}, ${batchItemErrors.field}) > (${sql.placeholder('index')}::int, ${sql.placeholder('field')}::text)`,
      ),
    )
    .orderBy(asc(batchItemErrors.itemIndex), asc(batchItemErrors.field))
    .limit(PAGE_SIZE + 1)
    .prepare('batch_field_errors_page'),
);
const fieldErrorCount = preparedPerHandle((db) =>
  db
    .select({ n: count() })
    .from(batchItemErrors)
    .where(
      and(eq(batchItemErrors.batchId, sql.placeholder('batchId')), eq(batchItemErrors.field, sql.placeholder('only'))),
    )
    .prepare('batch_field_errors_count'),
);

/**
 * Item errors of a batch by (item, field), 100 a page; `only` keeps the errors of one field (the
 * panel's filter: the API lists them all), and its tokens page that filter only.
 */
export async function listBatchErrors(
  ctx: AppContext,
  institutionId: string,
  batchId: string,
  continuable?: string,
  only?: string,
): Promise<BatchErrorPage> {
  await requireBatch(ctx.db, institutionId, batchId);
  const listing = only === undefined ? `batch-errors:${batchId}` : `batch-errors:${batchId}:${JSON.stringify(only)}`;
  const scope: ContinuationScope = { listing, tenantId: institutionId };
  const [index, field, carried] = continuable
    ? decodeContinuation(ctx.config.cursorSecret, scope, continuable, isErrorPosition)
    : [-1, ''];
  const [rows, total] = await Promise.all([
    only === undefined
      ? errorsAfter(ctx.db).execute({ batchId, index, field })
      : fieldErrorsAfter(ctx.db).execute({ batchId, index, field, only }),
    carriedTotal(carried, async () => {
      const [row] =
        only === undefined
          ? await errorCount(ctx.db).execute({ batchId })
          : await fieldErrorCount(ctx.db).execute({ batchId, only });
      return row?.n ?? 0;
    }),
  ]);
  const page = toPage(
    rows,
    (e) => ({ indice: e.itemIndex, campo: e.field, mensagem: e.message }),
    (e) => [e.itemIndex, e.field, total],
    (position) => encodeContinuation(ctx.config.cursorSecret, scope, position),
  );
  return {
    data: page.items,
    metadata: {
      totalItems: total,
      itemsPerPage: PAGE_SIZE,
      ...(page.continuable ? { continuable: page.continuable } : {}),
    },
  };
}
