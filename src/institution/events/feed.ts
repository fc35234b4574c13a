import { and, asc, eq, gt } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import { ValidationFailed } from '../../core/errors.js';
import type { Queryable } from '../../db/client.js';
import { institutionEvents } from '../../db/schema/index.js';

type InstitutionEventPage = components['schemas']['InstitutionEventPage'];
type InstitutionEvent = components['schemas']['InstitutionEvent'];

/** Events per page when the request names none. (Default: 100) */
export const DEFAULT_FEED_LIMIT = 100;

/**
 * A number the validator's coercion turns into Infinity (`desde=1e400`) is refused as the document
 * would, before the database sees it.
 */
function checkedInteger(name: 'desde' | 'limite', value: number | undefined): number | undefined {
  if (value === undefined || Number.isSafeInteger(value)) return value;
  const path = `query.${name}`;
  throw new ValidationFailed(
    `The request does not match the contract: ${path} must be an integer within the documented bounds`,
    [{ path, message: 'must be a finite integer' }],
  );
}

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
  const since = checkedInteger('desde', query.desde) ?? 0;
  const limit = checkedInteger('limite', query.limite) ?? DEFAULT_FEED_LIMIT;
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
