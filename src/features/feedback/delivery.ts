/**
 * Delivering the outbox, as the page and the service worker both do (the worker imports this
 * file, so it imports no React, no store and no feature's index.ts): the Background Sync tag that
 * wakes the worker, one replay at a time under the lock they share, one queued item's request and
 * what its reply means, the worker's send, and the access token the page mirrors for it.
 */
import { createStore, del, get, set } from 'idb-keyval';
import { apiObject, POST_NOT_REDIRECTED } from '../../lib/api/api-reply.ts';
import type { Outbox } from './outbox.ts';
import { outcomeOfNetworkError, outcomeOfReply, retryAfterMs, saveReplyOf, type OutboxEntry, type OutboxItem, type SendOutcome } from './outbox-rules.ts';
import { isSavedChange } from './saved-change.ts';
import { savedRequest } from './saved-request.ts';

/** The Background Sync tag under which the outbox is replayed. */
export const SYNC_TAG = 'feedback-outbox';

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

/** What a reply means for the queued item: its body is read, as only the API's receipt is delivery. */
export async function outcomeOfResponse(response: Response, item?: OutboxItem): Promise<SendOutcome> {
  const waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
  return outcomeOfReply(response.status, saveReplyOf(await apiObject(response), item), 1, waitMs);
}

/** A queued item's request from the API's base: a vote POSTs to /save, a saved passage's change goes to /saved/:id. */
export function outboxRequest(item: OutboxItem): { path: string; init: RequestInit } {
  if (isSavedChange(item)) {
    const { path, init } = savedRequest(item);
    return { path, init: { ...POST_NOT_REDIRECTED, ...init } };
  }
  return { path: '/save', init: { ...POST_NOT_REDIRECTED, body: JSON.stringify({ items: [item] }) } };
}

/** Sends one queued item (a vote, or a saved passage's change) with the given token, and says what came of it. */
export async function sendVote(apiBase: string, entry: OutboxEntry, accessToken: string): Promise<SendOutcome> {
  const { path, init } = outboxRequest(entry.item);
  let response: Response;
  try {
    response = await fetch(apiBase.replace(/\/$/, '') + path, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    });
  } catch (error) {
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response, entry.item);
}

/**
 * The page keeps the current access token (never the refresh token) where the service worker
 * can read it, so that a replay sends the token live at send time, not one frozen at queue time.
 */
export interface MirroredCredentials {
  access: string;
  username: string;
}

const store = () => createStore('alchemy-credentials', 'current');
let cached: ReturnType<typeof store> | undefined;
const credentialsStore = () => (cached ??= store());

export async function mirrorCredentials(credentials: MirroredCredentials | null): Promise<void> {
  if (credentials) await set('session', credentials, credentialsStore());
  else await del('session', credentialsStore());
}

export async function readCredentials(): Promise<MirroredCredentials | null> {
  return (await get<MirroredCredentials>('session', credentialsStore())) ?? null;
}
