import { jsonReply, publicFetch } from '../../lib/api/http-client.ts';
import { readBookText, saveBookText } from './pack-store.ts';

const NO_BOOK = 'The book cannot be opened: the server cannot be reached';

/** GET /api/book's reply (the reader's contract), as received. */
export async function fetchBookText(signal?: AbortSignal): Promise<unknown> {
  return jsonReply<unknown>(await publicFetch('/book', { signal }, NO_BOOK), NO_BOOK);
}

/**
 * Fetches the book's text and keeps it beside the offline pack. A failure leaves the pack as it
 * is (search with no network still works) and the text is fetched again on the next visit.
 */
export async function keepBookText(signal?: AbortSignal): Promise<void> {
  try {
    await saveBookText(await fetchBookText(signal));
  } catch {
    // The next check (checkOfflineBook) tries again.
  }
}

/** The book's text kept on this device, or undefined where none is (no offline book). */
export async function keptBookText(): Promise<unknown> {
  return readBookText().catch(() => undefined);
}
