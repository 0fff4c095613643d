import { ApiError } from '../api/api-error.ts';
import { authorizedFetch } from '../api/http-client.ts';
import { useSession } from '../stores/session-store.ts';
import { mirrorCredentials } from './credentials-mirror.ts';
import type { FeedbackItem } from './feedback-item.ts';
import { Outbox } from './outbox.ts';
import { outcomeOfNetworkError, type OutboxEntry, type SendOutcome } from './outbox-rules.ts';
import { refreshOutboxStatus, useOutboxStatus } from './outbox-status.ts';
import { replayOutbox, withReplayLock, type ReplayReport } from './replay-outbox.ts';
import { outcomeOfResponse } from './send-vote.ts';
import { SYNC_TAG } from './sync-tag.ts';

/** Where Background Sync is missing, the page tries again this often while votes wait. */
export const FLUSH_INTERVAL_MS = 15_000;

export const outbox = new Outbox();

/** The page sends with the session's token, refreshing it (and retrying a 401) as any call does. */
async function sendFromPage(entry: OutboxEntry): Promise<SendOutcome> {
  const { isAuthenticated, user } = useSession.getState();
  if (!isAuthenticated || user !== entry.author) return { kind: 'auth' };
  let response: Response;
  try {
    response = await authorizedFetch('/save', { method: 'POST', body: JSON.stringify({ items: [entry.item] }) });
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'unauthorized') return { kind: 'auth' };
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response);
}

/**
 * Replays the outbox from the page, one at a time, under the lock shared with the worker.
 * `now: true` (a reader's action, or the network coming back) does not wait out the back-off.
 */
export async function flushOutbox(options: { now?: boolean } = {}): Promise<ReplayReport> {
  const report = await withReplayLock(() => replayOutbox(outbox, sendFromPage, Date.now, { ignoreBackoff: options.now }));
  await refreshOutboxStatus(outbox);
  return report;
}

async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
    await sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here: the page's own flushes cover it.
  }
}

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

export async function dismissDeadLetter(key: string): Promise<void> {
  await outbox.dismissDeadLetter(key);
  await refreshOutboxStatus(outbox);
}

/**
 * Keeps the outbox moving from the page: flush at start, when the browser comes back online,
 * every 15 s while votes wait, and when the worker asks for a fresh token. Also mirrors the
 * current access token for the worker. Returns a function that stops it all.
 */
export function startOutboxSync(): () => void {
  const flush = () => void flushOutbox().catch(() => undefined);
  const flushNow = () => void flushOutbox({ now: true }).catch(() => undefined);
  const mirror = () => {
    const { authTokens, user } = useSession.getState();
    void mirrorCredentials(authTokens && user ? { access: authTokens.access, username: user } : null).catch(() => undefined);
  };
  mirror();
  const unsubscribe = useSession.subscribe((state, previous) => {
    if (state.authTokens !== previous.authTokens) {
      mirror();
      if (state.authTokens && !previous.authTokens) flushNow();
    }
  });
  const onMessage = (event: MessageEvent) => {
    const type = (event.data as { type?: string } | null)?.type;
    if (type === 'OUTBOX_CHANGED') void refreshOutboxStatus(outbox);
    if (type === 'OUTBOX_NEEDS_AUTH' && useSession.getState().isAuthenticated) {
      useSession
        .getState()
        .refreshToken()
        .then(flushNow, () => undefined);
    }
  };
  navigator.serviceWorker?.addEventListener('message', onMessage);
  window.addEventListener('online', flushNow);
  const timer = window.setInterval(() => {
    if (useOutboxStatus.getState().pending > 0) flush();
  }, FLUSH_INTERVAL_MS);
  flush();
  return () => {
    unsubscribe();
    navigator.serviceWorker?.removeEventListener('message', onMessage);
    window.removeEventListener('online', flushNow);
    window.clearInterval(timer);
  };
}
