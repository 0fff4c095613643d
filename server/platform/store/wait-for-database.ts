import pg from 'pg';
import { isUnavailable, isUnreachable, StoreUnavailableError } from './db.ts';

/**
 * A server started before its PostgreSQL (a whole stack coming up at once, a database being
 * restarted) waits for it instead of exiting: it tries again, saying so, until the database
 * answers or the wait is over.
 */
export const DATABASE_RETRY = { firstMs: 500, maxMs: 5_000 };

/** The wait after the `failures`-th failed attempt (1, 2, …): 0.5 s, doubling, at most 5 s. */
export function databaseRetryDelay(failures: number, policy = DATABASE_RETRY): number {
  return Math.min(policy.firstMs * 2 ** (failures - 1), policy.maxMs);
}

/** The database did not answer within the wait. */
export class DatabaseUnreachableError extends Error {}

/** Where a database URL points, for a log line: host, port and database, never the credentials. */
export function databaseLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the database';
  }
}

/** A driver error in a few words (ECONNREFUSED, or the server's message), without a stack. */
export function describeDatabaseError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The driver's own error, not the store's wrapper around it.
  const driver = error instanceof StoreUnavailableError && error.cause instanceof Error ? error.cause : error;
  const code = (error as { code?: unknown }).code;
  let message = driver.message;
  // Node 20 tries each address of a dual-stack name and reports them together, without a message.
  const tried = driver as Error & { errors?: unknown[] };
  if (!message && Array.isArray(tried.errors) && tried.errors[0] instanceof Error) message = tried.errors[0].message;
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

export interface WaitOptions {
  /** How long to keep trying; 0 tries once. */
  waitMs: number;
  /** Told before each wait, with the error that caused it. */
  onRetry(error: unknown, delayMs: number, failures: number): void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Runs `attempt` until it succeeds. An error meaning the database is away (`isUnavailable`) is
 * tried again after `databaseRetryDelay`, until `waitMs` has passed; then, or on any other error
 * (a wrong password, a missing database), it fails at once.
 */
export async function untilDatabaseAnswers<T>(where: string, attempt: () => Promise<T>, options: WaitOptions): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const deadline = now() + options.waitMs;
  for (let failures = 1; ; failures++) {
    try {
      return await attempt();
    } catch (error) {
      // Only a database that cannot be reached is waited for: a read-only one, or a deadlock in a
      // migration, would not mend by itself while a start waits.
      if (!isUnreachable(error)) throw error;
      const delay = Math.min(databaseRetryDelay(failures), deadline - now());
      if (delay <= 0) {
        const waited = Math.round(options.waitMs / 1000);
        throw new DatabaseUnreachableError(
          `PostgreSQL at ${where} did not answer${waited > 0 ? ` within ${waited} s` : ''} (${describeDatabaseError(error)})`,
          { cause: error },
        );
      }
      options.onRetry(error, delay, failures);
      await sleep(delay);
    }
  }
}

/**
 * A database failure as one sentence for an operator (no stack trace: the driver's is no help),
 * or undefined when the error is not the database's.
 */
export function databaseProblem(error: unknown, databaseUrl: string | undefined): string | undefined {
  if (error instanceof DatabaseUnreachableError) return error.message;
  const where = databaseUrl ? `PostgreSQL at ${databaseLabel(databaseUrl)}` : 'The database';
  if (isUnavailable(error)) return `${where} is not answering (${describeDatabaseError(error)})`;
  // The server refused us (a wrong password, no such database, no permission): its words suffice.
  if (error instanceof pg.DatabaseError) return `${where} refused: ${describeDatabaseError(error)}`;
  // Asked for TLS (sslmode) by a server that has none, or a certificate it does not trust.
  if (error instanceof Error && /does not support SSL|self[- ]signed certificate|certificate has expired|unable to verify the first certificate/i.test(error.message)) {
    return `${where} refused: ${error.message}`;
  }
  return undefined;
}
