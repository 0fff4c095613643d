import { withinTime } from '../util/within-time.ts';
import type { Db } from './db.ts';

/**
 * A database that takes longer than this to answer a check (readiness, the metrics' db_up) is
 * counted as not answering: it may be frozen, and a check must not wait as long as a query may.
 */
export const DATABASE_CHECK_MS = 2_000;

/** Checks of a database still waiting for its answer, shared by whoever asks meanwhile. */
const inFlight = new WeakMap<Db, Promise<boolean>>();

/**
 * Whether the database answers, and takes writes (a standby after a failover answers reads only),
 * within DATABASE_CHECK_MS; it throws when it does not answer in that time. Asked by readiness
 * checks and metrics scrapes: while one check waits, every other asker shares it, so a frozen
 * database holds one pooled connection for them, not one more at every poll.
 */
export function checkDatabase(db: Db): Promise<{ writable: boolean }> {
  let pending = inFlight.get(db);
  if (!pending) {
    pending = db
      .query<{ read_only: string }>("SELECT current_setting('transaction_read_only') AS read_only")
      .then(([row]) => row?.read_only !== 'on')
      .finally(() => inFlight.delete(db));
    inFlight.set(db, pending);
  }
  const answer = pending;
  return withinTime(DATABASE_CHECK_MS, () => answer).then((writable) => ({ writable }));
}
