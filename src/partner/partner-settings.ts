import { eq } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { partnerSettings } from '../db/schema/index.js';

/** Minimum course price on a fixed plan: 30 reais. */
export const FIXED_PLAN_MINIMUM_IN_CENTS = 3000;

export type Plan = 'fixed' | 'flexible';

/** What the operator agreed with a partner; a partner without a row has the defaults below. */
export interface PartnerSettings {
  /** (Default: fixed) */
  plan: Plan;
  /** Minimum sale value of a flexible plan, in cents; null on a fixed plan. */
  minimumSaleInCents: number | null;
  /** Grace period in days of classes whose course has none. (Default: 0) */
  defaultGracePeriodDays: number;
  /** Smallest upfront of an exclusive sale whose courses have none, in cents. (Default: none) */
  defaultUpfrontInCents: number | null;
}

const DEFAULTS: PartnerSettings = {
  plan: 'fixed',
  minimumSaleInCents: null,
  defaultGracePeriodDays: 0,
  defaultUpfrontInCents: null,
};

export async function getPartnerSettings(db: Queryable, partnerId: string): Promise<PartnerSettings> {
  const [row] = await db.select().from(partnerSettings).where(eq(partnerSettings.partnerId, partnerId));
  if (!row) return { ...DEFAULTS };
  return {
    plan: row.plan as Plan,
    minimumSaleInCents: row.minimumSaleInCents,
    defaultGracePeriodDays: row.defaultGracePeriodDays,
    defaultUpfrontInCents: row.defaultUpfrontInCents,
  };
}

/** Smallest course price the partner's plan allows, in cents. */
export function minimumCoursePriceInCents(settings: PartnerSettings): number {
  return settings.plan === 'flexible' && settings.minimumSaleInCents !== null
    ? settings.minimumSaleInCents
    : FIXED_PLAN_MINIMUM_IN_CENTS;
}

export class InvalidSettings extends Error {}

/**
 * Changes some settings of a partner and returns all of them. A flexible plan needs a minimum
 * sale value; going back to a fixed plan drops it.
 */
export async function updatePartnerSettings(
  db: Queryable,
  partnerId: string,
  changes: Partial<PartnerSettings>,
  now: Date,
): Promise<PartnerSettings> {
  const next = { ...(await getPartnerSettings(db, partnerId)), ...changes };
  if (changes.plan === 'fixed') next.minimumSaleInCents = null;
  if (next.plan === 'flexible' && next.minimumSaleInCents === null)
    throw new InvalidSettings('a flexible plan needs a minimum sale value');
  if (next.plan === 'fixed' && changes.minimumSaleInCents != null)
    throw new InvalidSettings('a minimum sale value applies only to a flexible plan');
  await db
    .insert(partnerSettings)
    .values({ partnerId, ...next, updatedAt: now })
    .onConflictDoUpdate({ target: partnerSettings.partnerId, set: { ...next, updatedAt: now } });
  return next;
}
