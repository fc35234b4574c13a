import { isCalendarDate } from '../../../core/dates.js';
import { addDays } from '../../../core/local-date.js';
import { nameKeyOf } from '../state/sale-flow.js';
import { type SaleState, statesNamed } from '../state/sale-states.js';

/** An inclusive range of `YYYY-MM-DD` days; either end may be open. */
export interface DayRange {
  from?: string;
  to?: string;
}

/** The filters of the sales list (#17), read leniently from its query. */
export interface SalesFilters {
  creditRequestId?: number;
  cpfDigits?: string;
  emailPart?: string;
  namePart?: string;
  /** Present when `status` was sent; empty when none of its names is a status (nothing matches). */
  states?: SaleState[];
  origins?: string[];
  courseIds?: number[];
  productTypes?: string[];
  creators?: string[];
  campaignNames?: string[];
  campaignCustomIdentifier?: string;
  created?: DayRange;
  effective?: DayRange;
  released?: DayRange;
  expectedPayment?: DayRange;
  ted?: DayRange;
  nextPayment?: DayRange;
  useNewStatusTranslation: boolean;
}

type Query = Record<string, unknown>;

/** A scalar parameter: its first value when repeated; anything but a non-blank string is absent. */
function scalar(query: Query, name: string): string | undefined {
  const raw = Array.isArray(query[name]) ? (query[name] as unknown[])[0] : query[name];
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
}

/** An array parameter, repeated or sent once; non-strings and blanks are dropped. */
function list(query: Query, name: string): string[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const values = (Array.isArray(raw) ? raw : [raw])
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map((v) => v.trim());
  return values.length ? values : undefined;
}

const MAX_INT = 2_147_483_647;
const positiveInt = (value: string) =>
  /^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_INT ? Number(value) : undefined;

/** A range from its two parameters; a lone start is also the end (spec rule 4); a bad date is ignored. */
function range(query: Query, start: string, end: string): DayRange | undefined {
  const from = scalar(query, start);
  const to = scalar(query, end);
  const validFrom = from && isCalendarDate(from) ? from : undefined;
  const validTo = to && isCalendarDate(to) ? to : undefined;
  if (!validFrom && !validTo) return undefined;
  return { from: validFrom, to: validTo ?? validFrom };
}

export function parseSalesFilters(query: Query): SalesFilters {
  const filters: SalesFilters = {
    useNewStatusTranslation: scalar(query, 'useNewStatusTranslation')?.toLowerCase() === 'true',
  };
  const crid = scalar(query, 'CreditRequestId');
  if (crid !== undefined) filters.creditRequestId = positiveInt(crid);
  const cpf = scalar(query, 'cpf')?.replace(/\D/g, '');
  if (cpf) filters.cpfDigits = cpf;
  const email = scalar(query, 'email');
  if (email) filters.emailPart = email.toLowerCase();
  const name = scalar(query, 'name');
  if (name) filters.namePart = nameKeyOf(name);
  const statuses = list(query, 'status');
  if (statuses) filters.states = [...new Set(statuses.flatMap(statesNamed))];
  filters.origins = list(query, 'cridOrigin');
  const courseIds = list(query, 'courseId')
    ?.map(positiveInt)
    .filter((n): n is number => n !== undefined);
  if (courseIds?.length) filters.courseIds = courseIds;
  filters.productTypes = list(query, 'productType');
  filters.creators = list(query, 'creator');
  filters.campaignNames = list(query, 'campaign');
  filters.campaignCustomIdentifier = scalar(query, 'campaignCustomIdentifier');
  filters.created = range(query, 'startDate', 'endDate');
  filters.effective = range(query, 'startEffectiveDate', 'endEffectiveDate');
  filters.released = range(query, 'startReleasedDate', 'endReleasedDate');
  filters.expectedPayment = range(query, 'startExpectedPaymentDate', 'endExpectedPaymentDate');
  filters.ted = range(query, 'startTedDate', 'endTedDate');
  filters.nextPayment = range(query, 'startNextPaymentDate', 'endNextPaymentDate');
  return filters;
}

/** The day after `to`, for half-open instant ranges. */
export const dayAfter = (day: string) => addDays(day, 1);

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export const likeLiteral = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
