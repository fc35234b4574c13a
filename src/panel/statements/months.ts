import type { Request } from 'express';

import { localDate } from '../../core/local-date.js';
import { previousMonth } from '../../institution/statements/closing.js';
import { queryOf } from '../../pages/list-pages.js';

/**
 * `YYYY-MM` of a month from 2000 on, read as the statements' filters read a month: as a month
 * field sends it (`2026-03`), as `fechamento_competencia` (any day of it, `2026-03-15`) or as
 * `competencia_vencimento` (`03/2026`), around spaces; a browser without a month field sends what
 * was typed. Undefined when it names no month.
 */
export function monthOf(value: string): string | undefined {
  const text = value.trim();
  const iso = /^(20\d\d)-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?$/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}`;
  const br = /^(0[1-9]|1[0-2])\/(20\d\d)$/.exec(text);
  return br ? `${br[2]}-${br[1]}` : undefined;
}

/** The month a statements page was asked for (`mes`; the one before this one when none); undefined when not a month. */
export function askedMonth(req: Request, now: Date): string | undefined {
  const values = queryOf(req).getAll('mes');
  if (values.length === 0 || values[0] === '') return previousMonth(now).slice(0, 7);
  return values.length === 1 ? monthOf(values[0]!) : undefined;
}

/** This month, shown in the month field of a page that refused the one asked for. */
export const thisMonth = (now: Date): string => localDate(now).slice(0, 7);
