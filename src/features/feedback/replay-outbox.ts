import type { Outbox } from './outbox.ts';
import type { OutboxEntry, SendOutcome } from './outbox-rules.ts';

/** What a replay did with one vote it tried (`waiting`: tried and kept, to be tried again). */
export type ReplayedVote =
  | { key: string; kind: 'delivered' }
  | { key: string; kind: 'rejected'; reason: string }
  /** Another reader's vote, passed over: it waits until its reader signs in here again. */
  | { key: string; kind: 'passed-over' }
  | { key: string; kind: 'waiting' };

export interface ReplayReport {
  /** Each vote the run tried, in the order tried, with what came of it. */
  votes: ReplayedVote[];
  /** Why the run ended before the outbox was empty, if it did. */
  stopped: null | 'retry' | 'auth' | 'not-due';
}

/** How many of the votes a run tried came to `kind`. */
export function countReplayed(report: ReplayReport, kind: ReplayedVote['kind']): number {
  return report.votes.filter((vote) => vote.kind === kind).length;
}

/**
 * Sends the outbox one vote at a time, oldest first, and says what came of each. A delivered vote
 * leaves the outbox; a refused one becomes a dead letter; a failed one stays, backs off, and ends
 * the run (the votes behind it would fail alike); a 401 ends the run without a penalty, to wait
 * for a fresh token. Another reader's vote is passed over, without a penalty: it waits for its
 * own reader, and never holds back the votes behind it.
 */
export async function replayOutbox(
  outbox: Outbox,
  send: (entry: OutboxEntry) => Promise<SendOutcome>,
  now: () => number = Date.now,
  options: { ignoreBackoff?: boolean } = {},
): Promise<ReplayReport> {
  const votes: ReplayedVote[] = [];
  const passedOver = new Set<string>();
  for (;;) {
    // Read again each time: votes given meanwhile join the run.
    const head = (await outbox.list()).find((entry) => !passedOver.has(entry.key));
    if (!head) return { votes, stopped: null };
    // A reader's own action (a new vote, "Send now", coming back online) tries at once.
    if (!options.ignoreBackoff && head.nextAttemptAt > now()) return { votes, stopped: 'not-due' };
    const outcome = await send(head);
    const key = head.key;
    switch (outcome.kind) {
      case 'delivered':
        await outbox.remove(key);
        votes.push({ key, kind: 'delivered' });
        break;
      case 'rejected':
        await outbox.moveToDeadLetters(head, outcome.reason, now());
        votes.push({ key, kind: 'rejected', reason: outcome.reason });
        break;
      case 'retry':
        await outbox.postpone(head, outcome.reason, now(), outcome.waitMs);
        votes.push({ key, kind: 'waiting' });
        return { votes, stopped: 'retry' };
      case 'auth':
        votes.push({ key, kind: 'waiting' });
        return { votes, stopped: 'auth' };
      case 'another-reader':
        passedOver.add(key);
        votes.push({ key, kind: 'passed-over' });
        break;
    }
  }
}

export const REPLAY_LOCK = 'alchemy-feedback-replay';

let localChain: Promise<unknown> = Promise.resolve();

/**
 * Runs `task` while holding the replay lock, so that only one replay runs at a time across
 * tabs and the service worker (Web Locks); where Web Locks are missing, one at a time here.
 */
export function withReplayLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks) return locks.request(REPLAY_LOCK, task) as Promise<T>;
  const run = localChain.then(task, task);
  localChain = run.catch(() => undefined);
  return run;
}
