import { systemClock } from '../../core/clock.js';
import { courseSettings } from '../../partner/catalogue/course-settings.js';
import { type Command, UsageError } from './command.js';
import { cents } from './partner-settings.js';
import { requireTenant } from './tenants.js';

/** `--default-upfront-cents`: whole cents, or `none` to drop the course's own default. */
const upfrontOf = (raw: string | undefined): number | null | undefined =>
  raw === 'none' ? null : cents('default-upfront-cents', raw);

/** The operator's side of a course's defaults. */
export const courseSettingsCommands: Record<string, Command> = {
  'course:settings': {
    usage:
      'course:settings --partner ID --course ID [--default-upfront-cents N|none]\n' +
      "                                    show or change a course's default upfront of exclusive sales (none: the partner's applies)",
    run: async (db, options) => {
      if (!options.partner || !options.course)
        throw new UsageError('course:settings needs --partner ID and --course ID');
      await requireTenant(db, 'partner', options.partner);
      if (!/^\d{1,10}$/.test(options.course) || Number(options.course) > 2_147_483_647)
        throw new UsageError(`--course takes a course id, got "${options.course}"`);
      const settings = await courseSettings(
        db,
        options.partner,
        Number(options.course),
        { defaultUpfrontInCents: upfrontOf(options['default-upfront-cents']) },
        systemClock.now(),
      );
      if (!settings) throw new UsageError(`partner ${options.partner} has no course ${options.course}`);
      return { partner: options.partner, ...settings };
    },
  },
};
