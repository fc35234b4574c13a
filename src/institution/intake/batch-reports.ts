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

const toBatchView = (batch: Batch, failed: FailedJob | undefined): BatchView => ({
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

/** Item errors of a batch by (item, field), 100 a page. */
export async function listBatchErrors(
  ctx: AppContext,
  institutionId: string,
  batchId: string,
  continuable?: string,
): Promise<BatchErrorPage> {
  await requireBatch(ctx.db, institutionId, batchId);
  const scope: ContinuationScope = { listing: `batch-errors:${batchId}`, tenantId: institutionId };
  const [index, field, carried] = continuable
    ? decodeContinuation(ctx.config.cursorSecret, scope, continuable, isErrorPosition)
    : [-1, ''];
  const [rows, total] = await Promise.all([
    errorsAfter(ctx.db).execute({ batchId, index, field }),
    carriedTotal(carried, async () => {
      const [row] = await errorCount(ctx.db).execute({ batchId });
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
