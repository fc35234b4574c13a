/** The PostgreSQL error behind a failed query: Drizzle wraps postgres.js errors in `cause`. */
function postgresError(error: unknown): { code?: string; constraint_name?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth++) {
    if (typeof (current as { code?: unknown }).code === 'string')
      return current as { code: string; constraint_name?: string };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when `error` is a unique violation of the named constraint or index (a lost race). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pg = postgresError(error);
  return pg?.code === '23505' && pg.constraint_name === constraint;
}
