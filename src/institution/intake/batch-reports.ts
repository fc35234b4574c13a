import { and, asc, count, eq, gt, or, type SQL } from 'drizzle-orm';
import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { batchItemErrors } from '../../db/schema/index.js';
import {
  carriedTotal,
  decodeContinuation,
  encodeContinuation,
  PAGE_SIZE,
  toPage,
  type ContinuationScope,
} from '../../core/continuation.js';
import { lastFailedAttempt, type FailedAttempt } from './batch-attempts.js';
import { requireBatch, type Batch } from './batches.js';

type BatchView = components['schemas']['Batch'];
type BatchErrorPage = components['schemas']['BatchErrorPage'];

const toBatchView = (batch: Batch, failed: FailedAttempt | undefined): BatchView => ({
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
  return toBatchView(batch, batch.finishedAt ? undefined : await lastFailedAttempt(ctx.db, batchId));
}

/** [item index, field, totalItems counted on the first page]; no total from older tokens. */
const isErrorPosition = (p: unknown[]): p is [number, string] | [number, string, number] =>
  (p.length === 2 || (p.length === 3 && Number.isSafeInteger(p[2]))) &&
  Number.isInteger(p[0]) &&
  typeof p[1] === 'string';

/** Item errors of a batch by (item, field), 100 a page. */
export async function listBatchErrors(
  ctx: AppContext,
  institutionId: string,
  batchId: string,
  continuable?: string,
): Promise<BatchErrorPage> {
  await requireBatch(ctx.db, institutionId, batchId);
  const scope: ContinuationScope = { listing: `batch-errors:${batchId}`, tenantId: institutionId };
  const ofBatch = eq(batchItemErrors.batchId, batchId);
  let where: SQL | undefined = ofBatch;
  let carried: number | undefined;
  if (continuable) {
    const [index, field, total] = decodeContinuation(ctx.config.cursorSecret, scope, continuable, isErrorPosition);
    carried = total;
    where = and(
      ofBatch,
      or(
        gt(batchItemErrors.itemIndex, index),
        and(eq(batchItemErrors.itemIndex, index), gt(batchItemErrors.field, field)),
      ),
    );
  }
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(batchItemErrors)
      .where(where)
      .orderBy(asc(batchItemErrors.itemIndex), asc(batchItemErrors.field))
      .limit(PAGE_SIZE + 1),
    carriedTotal(carried, async () => {
      const [row] = await ctx.db.select({ n: count() }).from(batchItemErrors).where(ofBatch);
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
