import { useSession } from '../stores/session-store.ts';
import { useOutboxStatus } from './outbox-status.ts';

/** Where Background Sync is missing, the page tries again this often while votes wait. */
export const FLUSH_INTERVAL_MS = 15_000;

export interface Flushes {
  /** Sends what is due (backed-off votes wait). */
  due: () => void;
  /** Sends everything at once (the reader's or the network's doing). */
  now: () => void;
}

/**
 * When the page flushes the outbox: once at start, every 15 s while votes wait, at once when the
 * browser comes back online and when a reader signs in. Returns a function that stops it.
 */
export function scheduleFlushes(flush: Flushes): () => void {
  const unsubscribe = useSession.subscribe((state, previous) => {
    if (state.authTokens && !previous.authTokens) flush.now();
  });
  window.addEventListener('online', flush.now);
  const timer = window.setInterval(() => {
    if (useOutboxStatus.getState().pending > 0) flush.due();
  }, FLUSH_INTERVAL_MS);
  flush.due();
  return () => {
    unsubscribe();
    window.removeEventListener('online', flush.now);
    window.clearInterval(timer);
  };
}
