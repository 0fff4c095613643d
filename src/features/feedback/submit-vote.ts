import type { FeedbackItem } from './feedback-item.ts';
import { flushOutbox, outbox, requestBackgroundSync, sendFromPage } from './flush-outbox.ts';
import type { OutboxEntry, SettledVote } from './outbox-rules.ts';
import type { ReplayReport } from './delivery.ts';
import { refreshOutboxStatus, useOutboxStatus } from './outbox-status.ts';
import { useSession } from '../session/index.ts';

export type VoteOutcome =
  | Exclude<SettledVote, { kind: 'queued' }>
  /** Safe in the outbox; `later` says how it ends: sent or refused, whoever sends it and when. */
  | { kind: 'queued'; later: Promise<Exclude<SettledVote, { kind: 'queued' }>> };

/**
 * How long a reader waits to hear that a vote was sent. Past that, the vote, already safe in the
 * outbox, is acknowledged as saved on the device while its send goes on (requests have no
 * time-out, so one stalled connection could otherwise hold every tab's vote for minutes).
 */
export const ACKNOWLEDGE_WITHIN_MS = 4_000;

/**
 * Every vote is written to the outbox before anything is sent, so no failure in between can
 * lose it; then the outbox is flushed. The server's client_id makes any repeat harmless.
 */
export function submitVote(item: FeedbackItem, author: string, options: { acknowledgeWithinMs?: number } = {}): Promise<VoteOutcome> {
  return submitVotes([item], author, options);
}

/**
 * Several items of one vote (a passage both models chose: one item per model), as one: written
 * to the outbox together, then sent. The vote is delivered when every item is, refused when any
 * is, and otherwise waits in the outbox.
 */
export async function submitVotes(
  items: FeedbackItem[],
  author: string,
  options: { acknowledgeWithinMs?: number } = {},
): Promise<VoteOutcome> {
  const entries: OutboxEntry[] = [];
  // Items the outbox could not take (storage blocked): sent at once instead, and how that went.
  const direct: Array<Exclude<SettledVote, { kind: 'queued' }>> = [];
  try {
    for (const item of items) entries.push(await outbox.add(item, author, Date.now()));
  } catch {
    direct.push(await sendWithoutOutbox(items.slice(entries.length), author));
    if (entries.length === 0) return direct[0]!;
  }
  // The replay says what came of each vote it tried: the outbox is read again only for a vote it
  // did not try (another tab's or the worker's replay took it first).
  const settled = flushOutbox({ now: true })
    .catch(() => undefined)
    .then(async (report) => oneVote([...direct, ...(await Promise.all(entries.map((entry) => settledAfter(report, entry.key))))]));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const patience = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), options.acknowledgeWithinMs ?? ACKNOWLEDGE_WITHIN_MS);
  });
  const first = await Promise.race([settled, patience]);
  clearTimeout(timer);
  if (first && first.kind !== 'queued') return first;
  // Waiting: the reader is shown the count now, whether or not its send is still under way.
  if (!first) await refreshOutboxStatus(outbox).catch(() => undefined);
  void requestBackgroundSync();
  // Its send may still be under way; else (or if that send leaves it waiting) a later one sends it.
  const later = settled.then(async (vote) =>
    vote.kind === 'queued' ? oneVote([...direct, ...(await Promise.all(entries.map((entry) => leavesOutbox(entry.key, author))))]) : vote,
  );
  return { kind: 'queued', later };
}

/** What became of a vote of several items: refused if any was, waiting if any waits, else delivered. */
function oneVote<T extends SettledVote>(items: T[]): T | { kind: 'delivered' } {
  return items.find((v) => v.kind === 'rejected') ?? items.find((v) => v.kind === 'queued') ?? { kind: 'delivered' };
}

/**
 * Resolves once the vote has left the outbox, sent or refused, by whichever send: this page's
 * next flush, the service worker's, another tab's. Looked at whenever the outbox's status is
 * read again, which every flush and every message from the worker does. Once its author is no
 * longer the reader signed in here, nobody is shown its card: it is no longer looked at, and
 * this never resolves.
 */
function leavesOutbox(key: string, author: string): Promise<Exclude<SettledVote, { kind: 'queued' }>> {
  return new Promise((resolve) => {
    let looking = false;
    let again = false;
    const look = async (): Promise<void> => {
      if (looking) {
        again = true;
        return;
      }
      if (useSession.getState().user !== author) {
        stop();
        return;
      }
      looking = true;
      try {
        const vote = await settledVote(key).catch(() => ({ kind: 'queued' }) as const);
        if (vote.kind !== 'queued') {
          stop();
          resolve(vote);
          return;
        }
      } finally {
        looking = false;
      }
      if (again) {
        again = false;
        await look();
      }
    };
    const stop = useOutboxStatus.subscribe(() => void look());
    void look();
  });
}

/** What became of a vote: as the replay just run reports it, else as the outbox holds it. */
async function settledAfter(report: ReplayReport | undefined, key: string): Promise<SettledVote> {
  const replayed = report?.votes.find((vote) => vote.key === key);
  switch (replayed?.kind) {
    case 'delivered':
      return { kind: 'delivered' };
    case 'rejected':
      return { kind: 'rejected', reason: replayed.reason };
    case 'waiting':
    case 'passed-over':
      return { kind: 'queued' };
    case undefined:
      return settledVote(key);
  }
}

async function settledVote(key: string): Promise<SettledVote> {
  if (await outbox.has(key)) return { kind: 'queued' };
  const letter = (await outbox.deadLetters()).find((d) => d.key === key);
  return letter ? { kind: 'rejected', reason: letter.reason } : { kind: 'delivered' };
}

/** Where IndexedDB is blocked, one direct attempt per item; a failure is the reader's to see. */
async function sendWithoutOutbox(items: FeedbackItem[], author: string): Promise<Exclude<SettledVote, { kind: 'queued' }>> {
  const outcomes: Array<Exclude<SettledVote, { kind: 'queued' }>> = [];
  for (const item of items) {
    const now = Date.now();
    const outcome = await sendFromPage({ key: item.client_id, item, author, queuedAt: now, attempts: 0, nextAttemptAt: now });
    outcomes.push(outcome.kind === 'delivered' ? outcome : { kind: 'rejected', reason: outcome.kind === 'rejected' ? outcome.reason : 'Failed to save feedback' });
  }
  return oneVote(outcomes);
}
