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
 * When the page flushes the outbox: at once when the app starts, when the browser comes back
 * online and when a reader signs in; and every 15 s while votes wait, as their back-off allows.
 * The start does not wait out a back-off built up while offline (up to 5 minutes): a reader
 * opening the app is the moment to try. Returns a function that stops it.
 */
export function scheduleFlushes(flush: Flushes): () => void {
  const unsubscribe = useSession.subscribe((state, previous) => {
    if (state.authTokens && !previous.authTokens) flush.now();
  });
  window.addEventListener('online', flush.now);
  const timer = window.setInterval(() => {
    if (useOutboxStatus.getState().pending > 0) flush.due();
  }, FLUSH_INTERVAL_MS);
  flush.now();
  return () => {
    unsubscribe();
    window.removeEventListener('online', flush.now);
    window.clearInterval(timer);
  };
}
