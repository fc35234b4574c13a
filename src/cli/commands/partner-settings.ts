import { systemClock } from '../../core/clock.js';
import {
  getPartnerSettings,
  InvalidSettings,
  type PartnerSettings,
  type Plan,
  updatePartnerSettings,
} from '../../partner/partner-settings.js';
import { type Command, type CommandOptions, UsageError } from './command.js';
import { requireTenant } from './tenants.js';

/** A whole number option (cents or days), or undefined when absent. */
export function cents(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647)
    throw new UsageError(`--${name} takes a whole number (cents or days), got "${raw}"`);
  return Number(raw);
}

/** The changes the options ask for; none means "show". */
function changesOf(options: CommandOptions): Partial<PartnerSettings> {
  const changes: Partial<PartnerSettings> = {};
  if (options.plan !== undefined) {
    if (options.plan !== 'fixed' && options.plan !== 'flexible')
      throw new UsageError(`--plan is fixed or flexible, got "${options.plan}"`);
    changes.plan = options.plan as Plan;
  }
  const minimum = cents('min-sale-cents', options['min-sale-cents']);
  if (minimum !== undefined) {
    if (minimum < 1) throw new UsageError('--min-sale-cents must be at least 1');
    changes.minimumSaleInCents = minimum;
  }
  const grace = cents('grace-period-days', options['grace-period-days']);
  if (grace !== undefined) changes.defaultGracePeriodDays = grace;
  const upfront = cents('default-upfront-cents', options['default-upfront-cents']);
  if (upfront !== undefined) changes.defaultUpfrontInCents = upfront;
  return changes;
}

/** The operator's side of a partner's plan and defaults. */
export const partnerSettingsCommands: Record<string, Command> = {
  'partner:settings': {
    usage:
      'partner:settings --partner ID [--plan fixed|flexible] [--min-sale-cents N] [--grace-period-days N] [--default-upfront-cents N]\n' +
      "                                    show or change a partner's plan (a flexible plan needs --min-sale-cents) and defaults",
    run: async (db, options) => {
      if (!options.partner) throw new UsageError('partner:settings needs --partner ID');
      await requireTenant(db, 'partner', options.partner);
      const changes = changesOf(options);
      try {
        const settings =
          Object.keys(changes).length === 0
            ? await getPartnerSettings(db, options.partner)
            : await updatePartnerSettings(db, options.partner, changes, systemClock.now());
        return { partner: options.partner, ...settings };
      } catch (error) {
        if (error instanceof InvalidSettings) throw new UsageError(error.message);
        throw error;
      }
    },
  },
};
