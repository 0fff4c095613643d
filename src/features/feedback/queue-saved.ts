import { flushOutbox, outbox, requestBackgroundSync } from './flush-outbox.ts';
import { refreshOutboxStatus } from './outbox-status.ts';
import type { ReplayReport } from './delivery.ts';
import { isSavedChange, type SavedChange } from './saved-change.ts';

/**
 * Puts a change to the reader's saved passages in the outbox votes use (written before anything
 * is sent), then sends it, or leaves it to the next replay: the page's, or the worker's.
 */
export async function queueSavedChange(change: SavedChange, author: string): Promise<ReplayReport | null> {
  await outbox.add(change, author, Date.now());
  void requestBackgroundSync();
  const report = await flushOutbox({ now: true }).catch(() => null);
  await refreshOutboxStatus(outbox).catch(() => undefined);
  return report;
}

/** The ids of `author`'s saved passages with a change still waiting in the outbox. */
export async function waitingSavedIds(author: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const entry of await outbox.list()) if (entry.author === author && isSavedChange(entry.item)) ids.add(entry.item.id);
  return ids;
}
