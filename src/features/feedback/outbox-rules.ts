import type { FeedbackItem } from './feedback-item.ts';
import { isSavedChange, type SavedChange } from './saved-change.ts';
import { isSavedReceipt } from './saved-request.ts';

/** What the outbox carries: a vote, or a change to the reader's saved passages. */
export type OutboxItem = FeedbackItem | SavedChange;

/** A vote waiting to be delivered. */
export interface OutboxEntry {
  /** Orders the outbox: time queued, then a tie-breaker, then the vote's client_id. */
  key: string;
  item: OutboxItem;
  /** Who gave the vote: it is only ever sent with that reader's token. */
  author: string;
  queuedAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
}

/** A vote the server refused (a 4xx other than 401): kept for the reader to see. */
export interface DeadLetter {
  key: string;
  item: OutboxItem;
  /** Who gave the vote (absent in letters kept by an older version): only they are shown it. */
  author?: string;
  reason: string;
  failedAt: number;
}

/** What one delivery attempt came to. */
export type SendOutcome =
  | { kind: 'delivered' }
  /** Tried again after the back-off, and not before `waitMs` when the server said how long to wait (Retry-After). */
  | { kind: 'retry'; reason: string; waitMs?: number }
  | { kind: 'auth' }
  /** Another reader's vote (they signed out here): it waits for them, and the votes behind it go on. */
  | { kind: 'another-reader' }
  | { kind: 'rejected'; reason: string };

/** What became of a vote the reader gave: sent, waiting in the outbox, or refused by the server. */
export type SettledVote = { kind: 'delivered' } | { kind: 'queued' } | { kind: 'rejected'; reason: string };

/** What a reply to /save held, as far as the outbox cares: the API's receipt, its refusal, or neither. */
export type SaveReplyBody =
  | { kind: 'receipt'; saved: number; duplicates: number }
  | { kind: 'refusal'; detail: string }
  /** Not the API's words: a captive portal's page, a proxy's error page, an empty body. */
  | { kind: 'foreign' };

/**
 * What the API's body says of a vote (apiObject's reading: `undefined` when the reply was not the
 * API's): a receipt `{saved, duplicates}`, a refusal `{detail}`, or neither.
 */
export function saveReplyOf(body: Record<string, unknown> | undefined, item?: OutboxItem): SaveReplyBody {
  // A saved passage's change: the receipt is the saved passage itself, by its id.
  if (item && isSavedChange(item) && isSavedReceipt(item, body)) return { kind: 'receipt', saved: 1, duplicates: 0 };
  const { saved, duplicates, detail } = body ?? {};
  if (Number.isInteger(saved) && Number.isInteger(duplicates)) return { kind: 'receipt', saved: saved as number, duplicates: duplicates as number };
  if (typeof detail === 'string' && detail) return { kind: 'refusal', detail };
  return { kind: 'foreign' };
}

/** Why a vote is kept when something other than the API answered for it. */
const NOT_THE_SERVER = 'The reply did not come from the server';

/**
 * What a reply to one vote's /save means. Only the API's own receipt, counting that vote (saved
 * or a duplicate), is delivery: a 200 page from a captive portal or a sign-in wall, or a redirect
 * (status 0 or 3xx, as votes are never redirected), is not, and the vote is tried again. 401
 * needs a fresh token; 5xx, 429 and 408 retry later. Any other 4xx is a dead letter only when the API itself refused the vote (its `{detail}`): a
 * proxy's 404 or 403 page says nothing of the vote, which is tried again.
 */
export function outcomeOfReply(status: number, body: SaveReplyBody, votesSent = 1, waitMs?: number): SendOutcome {
  const detail = body.kind === 'refusal' ? body.detail : undefined;
  if (status >= 200 && status < 300) {
    if (body.kind === 'receipt' && body.saved + body.duplicates === votesSent) return { kind: 'delivered' };
    return { kind: 'retry', reason: NOT_THE_SERVER };
  }
  if (status === 401) return { kind: 'auth' };
  if (status >= 500 || status === 429 || status === 408) {
    const reason = detail ?? `HTTP ${status}`;
    return waitMs === undefined ? { kind: 'retry', reason } : { kind: 'retry', reason, waitMs };
  }
  if (detail === undefined) return { kind: 'retry', reason: `${NOT_THE_SERVER} (HTTP ${status})` };
  return { kind: 'rejected', reason: detail };
}

/** No reply at all (offline, server down): the vote waits and is tried again. */
export function outcomeOfNetworkError(error: unknown): SendOutcome {
  return { kind: 'retry', reason: error instanceof Error ? error.message : 'Network error' };
}

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/**
 * Wait before attempt n+1 after n failures: 2 s, 4 s, 8 s … up to 5 minutes; longer when the
 * server asked for longer (`waitMs`, its Retry-After), up to the same 5 minutes.
 */
export function backoffMs(failures: number, waitMs = 0): number {
  return Math.min(Math.max(BACKOFF_BASE_MS * 2 ** Math.max(failures - 1, 0), waitMs), BACKOFF_MAX_MS);
}

/**
 * A Retry-After header's wait in ms: delay-seconds or an HTTP date (RFC 9110); undefined when
 * absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(at - now, 0);
}

let sequence = 0;

/** Keys sort in the order votes were given (IndexedDB orders string keys lexically). */
export function outboxKey(queuedAt: number, clientId: string): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(queuedAt).padStart(15, '0')}:${String(sequence).padStart(6, '0')}:${clientId}`;
}
