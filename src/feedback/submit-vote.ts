import { requestBackgroundSync } from './background-sync.ts';
import type { FeedbackItem } from './feedback-item.ts';
import { flushOutbox, outbox } from './flush-outbox.ts';
import type { OutboxEntry } from './outbox-rules.ts';
import { refreshOutboxStatus } from './outbox-status.ts';
import { sendFromPage } from './send-from-page.ts';

export type VoteOutcome = { kind: 'delivered' } | { kind: 'queued' } | { kind: 'rejected'; reason: string };

/**
 * Every vote is written to the outbox before anything is sent, so no failure in between can
 * lose it; then the outbox is flushed. The server's client_id makes any repeat harmless.
 */
export async function submitVote(item: FeedbackItem, author: string): Promise<VoteOutcome> {
  let entry: OutboxEntry;
  try {
    entry = await outbox.add(item, author, Date.now());
  } catch {
    return sendWithoutOutbox(item, author);
  }
  await refreshOutboxStatus(outbox);
  await flushOutbox({ now: true }).catch(() => undefined);
  if (await outbox.has(entry.key)) {
    void requestBackgroundSync();
    return { kind: 'queued' };
  }
  const letter = (await outbox.deadLetters()).find((d) => d.key === entry.key);
  return letter ? { kind: 'rejected', reason: letter.reason } : { kind: 'delivered' };
}

/** Where IndexedDB is blocked, one direct attempt; a failure is the reader's to see. */
async function sendWithoutOutbox(item: FeedbackItem, author: string): Promise<VoteOutcome> {
  const now = Date.now();
  const outcome = await sendFromPage({ key: item.client_id, item, author, queuedAt: now, attempts: 0, nextAttemptAt: now });
  if (outcome.kind === 'delivered') return outcome;
  return { kind: 'rejected', reason: outcome.kind === 'rejected' ? outcome.reason : 'Failed to save feedback' };
}
