/// <reference lib="webworker" />
import { readCredentials, replayOutbox, sendVote, withReplayLock } from '../src/features/feedback/delivery.ts';
import { Outbox } from '../src/features/feedback/outbox.ts';
import type { OutboxEntry, SendOutcome } from '../src/features/feedback/outbox-rules.ts';
import type { MessageToPage } from '../src/features/pwa/worker-messages.ts';

declare const self: ServiceWorkerGlobalScope;

const outbox = new Outbox();
const API_BASE = (import.meta.env.VITE_API_BASE_URL as string | undefined) || '/api';
const API_URL = new URL(API_BASE.replace(/\/$/, ''), self.location.origin).toString();

/** The token is read at send time, and only the vote's own author's token is ever used. */
async function sendFromWorker(entry: OutboxEntry): Promise<SendOutcome> {
  const credentials = await readCredentials();
  if (!credentials) return { kind: 'auth' };
  if (credentials.username !== entry.author) return { kind: 'another-reader' };
  return sendVote(API_URL, entry, credentials.access);
}

async function tellPages(message: MessageToPage): Promise<void> {
  for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) client.postMessage(message);
}

/**
 * Replays the outbox from the worker, under the lock the pages share. A 401 asks an open page to
 * refresh the session and flush; `failOnRetry` rejects when votes remain, so Background Sync
 * tries again later.
 */
export async function replayFromWorker(failOnRetry: boolean): Promise<void> {
  const report = await withReplayLock(() => replayOutbox(outbox, sendFromWorker));
  await tellPages({ type: 'OUTBOX_CHANGED' });
  if (report.stopped === 'auth') await tellPages({ type: 'OUTBOX_NEEDS_AUTH' });
  if (report.stopped === 'retry' && failOnRetry) throw new Error('Votes are still waiting; Background Sync will try again');
}
