/**
 * Every message between the pages and the service worker, in either direction: one union, which
 * the page (src/features/feedback/, src/features/pwa/) and the worker (sw/) both import.
 */
export type WorkerMessage =
  /** Page → worker: the waiting new version takes over (workbox-window's messageSkipWaiting sends it). */
  | { type: 'SKIP_WAITING' }
  /** Page → worker: replay the outbox now. */
  | { type: 'FLUSH_OUTBOX' }
  /** Worker → pages: the outbox changed; count the waiting votes again. */
  | { type: 'OUTBOX_CHANGED' }
  /** Worker → pages: the server refused the mirrored token; refresh the session, then flush. */
  | { type: 'OUTBOX_NEEDS_AUTH' };

export type MessageToWorker = Extract<WorkerMessage, { type: 'SKIP_WAITING' | 'FLUSH_OUTBOX' }>;
export type MessageToPage = Extract<WorkerMessage, { type: 'OUTBOX_CHANGED' | 'OUTBOX_NEEDS_AUTH' }>;

const TO_WORKER: ReadonlySet<string> = new Set<MessageToWorker['type']>(['SKIP_WAITING', 'FLUSH_OUTBOX']);
const TO_PAGE: ReadonlySet<string> = new Set<MessageToPage['type']>(['OUTBOX_CHANGED', 'OUTBOX_NEEDS_AUTH']);

function typeOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('type' in data)) return null;
  return typeof data.type === 'string' ? data.type : null;
}

/** A message event's data as one the worker understands, or null for anything else. */
export function messageToWorker(data: unknown): MessageToWorker | null {
  const type = typeOf(data);
  return type !== null && TO_WORKER.has(type) ? ({ type } as MessageToWorker) : null;
}

/** A message event's data as one a page understands, or null for anything else. */
export function messageToPage(data: unknown): MessageToPage | null {
  const type = typeOf(data);
  return type !== null && TO_PAGE.has(type) ? ({ type } as MessageToPage) : null;
}
