/**
 * A change to a reader's saved passages, carried by the same outbox as votes (the saved feature
 * makes them; the page and the service worker send them). Its `client_id` keys it in the outbox;
 * the server keeps the saved passage by `id`, and the newest `updated_at` wins (docs/api.md).
 */
export interface SavedChange {
  kind: 'saved';
  op: 'put' | 'delete';
  /** This change's own id (the outbox's key). */
  client_id: string;
  /** The saved passage's id (a UUID made when it was first saved). */
  id: string;
  /** The paragraph (`ch4#p12`), or a search result's passage id the server turns into one. */
  anchor?: string;
  passage?: string;
  note: string;
  saved_at: number;
  updated_at: number;
}

export function isSavedChange(item: object): item is SavedChange {
  return (item as { kind?: unknown }).kind === 'saved';
}
