import { SYNC_TAG } from './sync-tag.ts';

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };

/** Asks the browser to wake the worker to replay the outbox once it is online (Background Sync). */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as SyncRegistration | undefined;
    await registration?.sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here: the page's own flushes cover it.
  }
}
