import type { FeedbackItem } from './feedback-item.ts';

/** A vote waiting to be delivered. */
export interface OutboxEntry {
  /** Orders the outbox: time queued, then a tie-breaker, then the vote's client_id. */
  key: string;
  item: FeedbackItem;
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
  item: FeedbackItem;
  /** Who gave the vote (absent in letters kept by an older version): only they are shown it. */
  author?: string;
  reason: string;
  failedAt: number;
}

/** What one delivery attempt came to. */
export type SendOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; reason: string }
  | { kind: 'auth' }
  /** Another reader's vote (they signed out here): it waits for them, and the votes behind it go on. */
  | { kind: 'another-reader' }
  | { kind: 'rejected'; reason: string };

/** What became of a vote the reader gave: sent, waiting in the outbox, or refused by the server. */
export type SettledVote = { kind: 'delivered' } | { kind: 'queued' } | { kind: 'rejected'; reason: string };

/** 2xx delivered (a duplicate too); network, 5xx and 429 retry later; 401 needs a fresh token; other 4xx are dead letters. */
export function outcomeOfStatus(status: number, detail?: string): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 401) return { kind: 'auth' };
  if (status >= 500 || status === 429 || status === 408) return { kind: 'retry', reason: detail ?? `HTTP ${status}` };
  return { kind: 'rejected', reason: detail ?? 'Failed to save feedback' };
}

/** No reply at all (offline, server down): the vote waits and is tried again. */
export function outcomeOfNetworkError(error: unknown): SendOutcome {
  return { kind: 'retry', reason: error instanceof Error ? error.message : 'Network error' };
}

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** Wait before attempt n+1 after n failures: 2 s, 4 s, 8 s … up to 5 minutes. */
export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(failures - 1, 0), BACKOFF_MAX_MS);
}

let sequence = 0;

/** Keys sort in the order votes were given (IndexedDB orders string keys lexically). */
export function outboxKey(queuedAt: number, clientId: string): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(queuedAt).padStart(15, '0')}:${String(sequence).padStart(6, '0')}:${clientId}`;
}
