/**
 * Sending the outbox from the page: one vote with the session's token, the whole outbox under
 * the lock shared with the worker, and asking the worker to send it later (Background Sync).
 */
import { ApiError } from '../../lib/api/api-error.ts';
import { authorizedFetch } from '../../lib/api/http-client.ts';
import { useSession } from '../session/index.ts';
import { outcomeOfNetworkError, type OutboxEntry, type SendOutcome } from './outbox-rules.ts';
import { outboxRequest, outcomeOfResponse, replayOutbox, SYNC_TAG, withReplayLock, type ReplayReport } from './delivery.ts';
import { Outbox } from './outbox.ts';
import { refreshOutboxStatus } from './outbox-status.ts';

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

/**
 * Sends one vote from the page with the session's token, refreshing it (and retrying a 401) as
 * any call does. Only the vote's own author's token ever carries it.
 */
export async function sendFromPage(entry: OutboxEntry): Promise<SendOutcome> {
  const { isAuthenticated, user } = useSession.getState();
  if (!isAuthenticated) return { kind: 'auth' };
  if (user !== entry.author) return { kind: 'another-reader' };
  let response: Response;
  try {
    const { path, init } = outboxRequest(entry.item);
    response = await authorizedFetch(path, init, { as: entry.author });
  } catch (error) {
    // The session may have changed hands while the vote was on its way: it waits for its author.
    if (error instanceof ApiError && error.kind === 'unauthorized') {
      return useSession.getState().user === entry.author ? { kind: 'auth' } : { kind: 'another-reader' };
    }
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response, entry.item);
}

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };

/** Asks the browser to wake the worker to replay the outbox once it is online (Background Sync). */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as SyncRegistration | undefined;
    await registration?.sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here: the page's own flushes cover it.
  }
}
