import type { Request } from 'express';

/** Longest value of any panel form field kept for showing again; longer ones are refused by their rule. */
const KEPT = 300;

const bodyOf = (req: Request) => (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;

/**
 * The posted values of the named fields: text as sent (a field sent twice, or not as text, is
 * empty), cut to a length that is still refused by every rule yet cheap to show again: `kept`,
 * for a form whose rules allow more than 300 characters, is longer than the longest they allow.
 */
export function readFields<Name extends string>(
  req: Request,
  names: readonly Name[],
  kept = KEPT,
): Record<Name, string> {
  const body = bodyOf(req);
  return Object.fromEntries(
    names.map((name) => [name, typeof body[name] === 'string' ? (body[name] as string).slice(0, kept) : '']),
  ) as Record<Name, string>;
}

/** The values of a group of checkboxes of one name, in the order sent (what is not text is left out). */
export function readChoices(req: Request, name: string): string[] {
  const value = bodyOf(req)[name];
  const values: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string').map((v) => v.slice(0, KEPT));
}
