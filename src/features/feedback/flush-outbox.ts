import { Outbox } from './outbox.ts';
import { refreshOutboxStatus } from './outbox-status.ts';
import { replayOutbox, withReplayLock, type ReplayReport } from './replay-outbox.ts';
import { sendFromPage } from './send-from-page.ts';

/** The outbox as the page sees it (the worker opens the same IndexedDB stores). */
export const outbox = new Outbox();

/**
 * Replays the outbox from the page, one at a time, under the lock shared with the worker, then
 * counts what is left. `now: true` (a reader's action, or the network coming back) does not wait
 * out the back-off.
 */
export async function flushOutbox(options: { now?: boolean } = {}): Promise<ReplayReport> {
  const report = await withReplayLock(() => replayOutbox(outbox, sendFromPage, Date.now, { ignoreBackoff: options.now }));
  await refreshOutboxStatus(outbox);
  return report;
}

/** The reader has seen a refused vote: it goes. */
export async function dismissDeadLetter(key: string): Promise<void> {
  await outbox.dismissDeadLetter(key);
  await refreshOutboxStatus(outbox);
}
