import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { localDate } from '../core/local-date.js';
import { bookAllDueRecords } from '../institution/books/payments.js';

/** 00:05 in Brasília (UTC−3) every day: the card installments the acquirer pays that day reach the books. */
export const BOOK_DUE_RECORDS_CRONTAB = '5 3 * * * book-due-records ?fill=3d';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['book-due-records'] {
  const p = (payload ?? {}) as { institutionId?: unknown };
  if (p.institutionId !== undefined && typeof p.institutionId !== 'string')
    throw new Error('book-due-records takes {institutionId?}');
}

/**
 * Books the card installments the acquirer has paid by today (Brasília) and the books lack: a card
 * in installments is booked one record a month, and without this pass a record would wait for the
 * next read of the statements or the month's closing. Each payment is booked once, in a
 * transaction of its own, so a run twice or a retry books only what is left.
 */
export default function bookDueRecordsTask(ctx: AppContext): Task<'book-due-records'> {
  return async (payload) => {
    assertPayload(payload);
    const today = localDate(ctx.clock.now());
    const booked = await bookAllDueRecords(ctx.db, today, payload.institutionId);
    if (booked > 0) ctx.logger.info({ today, booked }, 'card installments due booked');
  };
}
