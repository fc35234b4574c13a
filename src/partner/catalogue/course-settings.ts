import { and, eq } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { courses } from '../../db/schema/index.js';
import { getPartnerSettings } from '../partner-settings.js';

/** What the operator sets on one course of a partner (and, later, the partner panel). */
export interface CourseSettings {
  course: number;
  name: string;
  /** Smallest upfront of an exclusive sale of this course, in cents; null: the partner's applies. */
  defaultUpfrontInCents: number | null;
  /** The default that applies: the course's, else the partner's (null when neither has one). */
  effectiveDefaultUpfrontInCents: number | null;
}

/**
 * The course's settings after applying `changes` (none: as they are); undefined when the partner has
 * no such course. `defaultUpfrontInCents: null` drops the course's own default.
 */
export async function courseSettings(
  db: Queryable,
  partnerId: string,
  courseId: number,
  changes: { defaultUpfrontInCents?: number | null },
  now: Date,
): Promise<CourseSettings | undefined> {
  const mine = and(eq(courses.id, courseId), eq(courses.partnerId, partnerId));
  const [row] =
    changes.defaultUpfrontInCents !== undefined
      ? await db
          .update(courses)
          .set({ defaultUpfrontInCents: changes.defaultUpfrontInCents, updatedAt: now })
          .where(mine)
          .returning()
      : await db.select().from(courses).where(mine);
  if (!row) return undefined;
  const partner = await getPartnerSettings(db, partnerId);
  return {
    course: row.id,
    name: row.name,
    defaultUpfrontInCents: row.defaultUpfrontInCents,
    effectiveDefaultUpfrontInCents: row.defaultUpfrontInCents ?? partner.defaultUpfrontInCents,
  };
}
