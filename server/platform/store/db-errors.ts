/**
 * Which driver errors mean that the database cannot serve us now (away, restarting, busy), as
 * against a query that was wrong: the first are a 503 for a request, and a start waits on those
 * that say the database cannot be reached.
 */

/** The database cannot be reached right now (down, restarting, or it dropped the connection). */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
  }
}

/**
 * The database cannot be reached: class 08 (connection exception) but for 08P01 (a protocol
 * violation: a setting refused, not an outage), 57P01–57P03 (shutting down or starting), 57P04
 * (the database dropped under a running server), 53300 (out of connections), 55000 when the
 * database takes no connections (`ALLOW_CONNECTIONS false`, told by its message: the code alone
 * also names mistakes in a query), and the network's own errors.
 */
const UNREACHABLE_SQLSTATE = /^(08(?!P01)...|57P0[1234]|53300)$/;
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const UNREACHABLE_MESSAGE = /not currently accepting connections|Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|Query read timeout|PGlite is closed/i;
/**
 * It answers but cannot serve us now, however right the query: class 53 (out of memory or disk),
 * 25006 (read-only: a standby after a failover), 57014 (cancelled, by an operator or the statement
 * time-out), 55P03 (a lock not granted in time), 40001 and 40P01 (serialization failure,
 * deadlock). A request gets a 503 for these; a start does not wait on them (see isUnreachable).
 */
const BUSY_SQLSTATE = /^(53...|25006|57014|55P03|40001|40P01)$/;

const codeOf = (error: Error) => (error as { code?: unknown }).code;

/** Whether an error from the driver means the database cannot be reached at all. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return isUnreachable(error.cause);
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code))) return true;
  return UNREACHABLE_MESSAGE.test(error.message);
}

/** Whether an error from the driver means the database cannot serve us now, not that the query was wrong. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError || isUnreachable(error)) return true;
  const code = error instanceof Error ? codeOf(error) : undefined;
  return typeof code === 'string' && BUSY_SQLSTATE.test(code);
}

/** The error a store throws for `error`: StoreUnavailableError where the database cannot serve us now. */
export function unavailableOr(error: unknown): unknown {
  return isUnavailable(error) ? new StoreUnavailableError(error) : error;
}
