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

/**
 * Codes of a database that cannot be reached or went away: the socket's (Node), postgres.js' own
 * (`CONNECTION_CLOSED`…) and pg's alike, and the server's (SQLSTATE class 08, connection
 * exception; 57P01–57P03, the server shutting down, crashed or still starting; 53300, no
 * connection slot left).
 */
const CONNECTION_LOSS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** True when `error` (or what it wraps) says the database is unreachable, not that a statement was wrong. */
export function isConnectionLoss(error: unknown): boolean {
  const code = postgresError(error)?.code;
  if (code !== undefined) return CONNECTION_LOSS.has(code) || code.startsWith('08');
  // pg (graphile-worker's driver) says so in words only when a connection ends under a query.
  const message = (error as { message?: unknown } | undefined)?.message;
  return (
    typeof message === 'string' && /^Connection terminated( unexpectedly| due to connection timeout)?$/.test(message)
  );
}
