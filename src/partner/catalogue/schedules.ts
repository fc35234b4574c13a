import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { campaigns, courseClasses } from '../../db/schema/index.js';
import { scheduleCatalogueChange } from '../../queue/jobs.js';
import type { ScheduleKind } from '../../queue/tasks.js';

export type { ScheduleKind };

/**
 * Schedules a job at `at`, in the caller's transaction. One job per record and kind, so a changed
 * instant replaces the pending job instead of adding one.
 */
export const scheduleAt = scheduleCatalogueChange;

export interface SweepResult {
  activated: string[];
  deactivated: string[];
  hidden: number[];
}

/**
 * Applies every schedule due as of `now`: campaigns whose start has come become active (unless
 * their end has come too), campaigns whose end has come become inactive, classes whose expiry has
 * come become invisible. Idempotent: each start and end is applied once (`activatedAt`,
 * `deactivatedAt`), so running it again, from a job or from the start-up sweep, changes nothing.
 */
export async function applyDueSchedules(db: Queryable, now: Date): Promise<SweepResult> {
  const started = await db
    .update(campaigns)
    .set({
      active: sql`${campaigns.endsAt} is null or ${campaigns.endsAt} > ${now.toISOString()}::timestamptz`,
      activatedAt: now,
      updatedAt: now,
    })
    .where(and(isNull(campaigns.activatedAt), lte(campaigns.startsAt, now)))
    .returning({ id: campaigns.id, active: campaigns.active });
  const ended = await db
    .update(campaigns)
    .set({ active: false, deactivatedAt: now, updatedAt: now })
    .where(and(isNull(campaigns.deactivatedAt), isNotNull(campaigns.endsAt), lte(campaigns.endsAt, now)))
    .returning({ id: campaigns.id });
  const hidden = await db
    .update(courseClasses)
    .set({ visible: false, updatedAt: now })
    .where(and(eq(courseClasses.visible, true), isNotNull(courseClasses.expiresAt), lte(courseClasses.expiresAt, now)))
    .returning({ id: courseClasses.id });
  return {
    activated: started.filter((c) => c.active).map((c) => c.id),
    deactivated: ended.map((c) => c.id),
    hidden: hidden.map((c) => c.id),
  };
}
