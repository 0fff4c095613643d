import type { SavedChange } from './saved-change.ts';

// How a change is delivered, apart from what a change is (saved-change.ts): only the outbox's
// sending needs this, and it loads after the first page (the page's status bar needs only the other).

/** The request that delivers a change, from the API's base: its path and method and body. */
export function savedRequest(change: SavedChange): { path: string; init: RequestInit } {
  const path = `/saved/${encodeURIComponent(change.id)}`;
  if (change.op === 'delete') return { path: `${path}?updated_at=${change.updated_at}`, init: { method: 'DELETE' } };
  const { anchor, passage, note, saved_at, updated_at } = change;
  return {
    path,
    init: { method: 'PUT', body: JSON.stringify({ ...(anchor ? { anchor } : passage ? { passage } : {}), note, saved_at, updated_at }) },
  };
}

/** Whether the API's body is the receipt for this change: the saved passage, by its id. */
export function isSavedReceipt(change: SavedChange, body: Record<string, unknown> | undefined): boolean {
  return typeof body?.id === 'string' && body.id.toLowerCase() === change.id.toLowerCase();
}
