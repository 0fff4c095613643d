import type { Outbox } from './outbox.ts';
import type { OutboxEntry, SendOutcome } from './outbox-rules.ts';

export interface ReplayReport {
  delivered: number;
  deadLettered: number;
  /** Votes of other readers, passed over: they wait until their reader signs in here again. */
  passedOver: number;
  /** Why the run ended before the outbox was empty, if it did. */
  stopped: null | 'retry' | 'auth' | 'not-due';
}

/**
 * Sends the outbox one vote at a time, oldest first. A delivered vote leaves the outbox; a
 * refused one becomes a dead letter; a failed one stays, backs off, and ends the run (the votes
 * behind it would fail alike); a 401 ends the run without a penalty, to wait for a fresh token.
 * Another reader's vote is passed over, without a penalty: it waits for its own reader, and
 * never holds back the votes behind it.
 */
export async function replayOutbox(
  outbox: Outbox,
  send: (entry: OutboxEntry) => Promise<SendOutcome>,
  now: () => number = Date.now,
  options: { ignoreBackoff?: boolean } = {},
): Promise<ReplayReport> {
  const report: ReplayReport = { delivered: 0, deadLettered: 0, passedOver: 0, stopped: null };
  const passedOver = new Set<string>();
  for (;;) {
    // Read again each time: votes given meanwhile join the run.
    const head = (await outbox.list()).find((entry) => !passedOver.has(entry.key));
    if (!head) return report;
    // A reader's own action (a new vote, "Send now", coming back online) tries at once.
    if (!options.ignoreBackoff && head.nextAttemptAt > now()) return { ...report, stopped: 'not-due' };
    const outcome = await send(head);
    switch (outcome.kind) {
      case 'delivered':
        await outbox.remove(head.key);
        report.delivered += 1;
        break;
      case 'rejected':
        await outbox.moveToDeadLetters(head, outcome.reason, now());
        report.deadLettered += 1;
        break;
      case 'retry':
        await outbox.postpone(head, outcome.reason, now(), outcome.waitMs);
        return { ...report, stopped: 'retry' };
      case 'auth':
        return { ...report, stopped: 'auth' };
      case 'another-reader':
        passedOver.add(head.key);
        report.passedOver += 1;
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
