import type { Queryable } from '../../platform/store/db.ts';
import { deleteFeedbackBefore } from '../arena/index.ts';
import { deleteEndedSessions } from '../auth/index.ts';
import { deleteSettledThrottles } from '../../platform/limits/throttle.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** How long what the store keeps about readers is kept (the privacy page's promises). */
export interface Retention {
  /** A session unused this long has ended (SESSION_IDLE_DAYS). */
  sessionIdleSeconds: number;
  /** Votes are deleted at this age: "at most two years". */
  voteDays: number;
  /** How long failed sign-ins count (the throttle policy's window): a count whose window is over is settled. */
  signInWindowMs: number;
  /** ARENA_DAILY_ROUNDS: the bound by which the tallies of readers who lose votes are made again. */
  dailyRoundBound: number;
}

export const VOTE_RETENTION_DAYS = 730;

/**
 * A session signed out or ended early is kept a day, so that a stolen refresh token presented
 * again meanwhile is still recognised as the ended session's.
 */
const ENDED_SESSION_KEPT_MS = DAY_MS;

export interface Forgotten {
  signInCounts: number;
  sessions: number;
  votes: number;
}

/**
 * Deletes what the store no longer needs and has promised not to keep: failed sign-in counts
 * whose hour is over (and counts of nothing, left by attempts refused before their count), the
 * sessions that have ended (their refresh tokens with them), and votes past their retention.
 * Safe to run on several instances at once, and at any time: a count still in its hour, locked
 * or with attempts in flight, and a live session, are never touched.
 */
export async function forgetWhatIsDue(db: Queryable, now: number, retention: Retention): Promise<Forgotten> {
  return {
    signInCounts: await deleteSettledThrottles(db, now, now - retention.signInWindowMs),
    sessions: await deleteEndedSessions(
      db,
      new Date(now),
      new Date(now - retention.sessionIdleSeconds * 1000),
      new Date(now - ENDED_SESSION_KEPT_MS),
    ),
    votes: await deleteFeedbackBefore(db, new Date(now - retention.voteDays * DAY_MS), retention.dailyRoundBound),
  };
}

export interface HousekeepingLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** How often each instance forgets what is due: counts end by the hour, so hourly is soon enough. */
export const HOUSEKEEPING_EVERY_MS = HOUR_MS;

/**
 * Forgets what is due now and every `everyMs` after, until stopped. A round the database cannot
 * serve (away, read-only) is logged in one line and left to the next; nothing waits for it.
 */
export function keepForgetting(db: Queryable, retention: Retention, log: HousekeepingLog, everyMs = HOUSEKEEPING_EVERY_MS): () => void {
  const round = () => {
    forgetWhatIsDue(db, Date.now(), retention).then(
      (forgotten) => {
        if (forgotten.signInCounts + forgotten.sessions + forgotten.votes > 0) log.info({ forgotten }, 'forgot what the store keeps no longer');
      },
      (error: unknown) => log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'housekeeping put off to its next round'),
    );
  };
  round();
  const timer = setInterval(round, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
