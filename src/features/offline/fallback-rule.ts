import { ApiError } from '../../lib/api/api-error.ts';

/** How long a search waits for the server before the device answers (when it keeps the book). */
export const SERVER_WAIT_MS = 4_000;

/** What became of asking the server: its results, its error, or no answer in time. */
export type ServerOutcome = { kind: 'answered' } | { kind: 'failed'; error: unknown } | { kind: 'too-late' };

/**
 * Whether to ask the server at all: not from a browser that knows it is offline, when the device
 * keeps the book (it answers at once instead of after a failed request).
 */
export function asksServer(online: boolean, bookOnDevice: boolean): boolean {
  return online || !bookOnDevice;
}

/**
 * Whether the device answers once the server has had its chance: only when it keeps the book,
 * and the server did not answer in time, could not be reached (or something else answered in its
 * place: a captive portal's page), or answered that it cannot serve now (5xx). A refusal of the
 * question itself (400, 429) is the server's answer and is shown as such.
 */
export function deviceAnswers(outcome: ServerOutcome, bookOnDevice: boolean): boolean {
  if (!bookOnDevice) return false;
  if (outcome.kind === 'too-late') return true;
  if (outcome.kind === 'answered') return false;
  return outcome.error instanceof ApiError && outcome.error.retryable;
}
