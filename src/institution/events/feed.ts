import { and, asc, eq, gt } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import { safeQueryInteger } from '../../core/errors.js';
import type { Queryable } from '../../db/client.js';
import { institutionEvents } from '../../db/schema/index.js';

type InstitutionEventPage = components['schemas']['InstitutionEventPage'];
type InstitutionEvent = components['schemas']['InstitutionEvent'];

/** Events per page when the request names none. (Default: 100) */
export const DEFAULT_FEED_LIMIT = 100;

/**
 * The catch-up feed: the institution's events after `desde`, in `sequencia` order, each as its
 * deliveries carry it. The counter row stays locked until an event's transaction ends, so reading
 * from the last `sequencia` seen misses nothing.
 */
export async function listInstitutionEvents(
  db: Queryable,
  institutionId: string,
  query: { desde?: number; limite?: number },
): Promise<InstitutionEventPage> {
  const since = safeQueryInteger('desde', query.desde) ?? 0;
  const limit = safeQueryInteger('limite', query.limite) ?? DEFAULT_FEED_LIMIT;
  const rows = await db
    .select({ sequence: institutionEvents.sequence, payload: institutionEvents.payload })
    .from(institutionEvents)
    .where(and(eq(institutionEvents.institutionId, institutionId), gt(institutionEvents.sequence, since)))
    .orderBy(asc(institutionEvents.sequence))
    .limit(limit);
  return {
    eventos: rows.map((r) => r.payload as InstitutionEvent),
    proximoDesde: rows.at(-1)?.sequence ?? since,
  };
}
