/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { isAppPagePath } from '../contract/app-paths.ts';
import { SYNC_TAG } from '../src/features/feedback/delivery.ts';
import { messageToWorker } from '../src/features/pwa/worker-messages.ts';
import { replayFromWorker } from './replay-from-worker.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The app shell and every route's code (the about page's content among it), from the build.
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// The app's pages load the shell; the API (however its path is spelt) is never answered from a
// cache, and a file the server does not have is the server's 404, as the server decides.
registerRoute(({ request, url }) => request.mode === 'navigate' && isAppPagePath(url.pathname), createHandlerBoundToURL('/index.html'));

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = messageToWorker(event.data);
  switch (message?.type) {
    case 'SKIP_WAITING':
      void self.skipWaiting();
      break;
    case 'FLUSH_OUTBOX':
      event.waitUntil(replayFromWorker(false));
      break;
  }
});

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

self.addEventListener('sync', ((event: SyncEvent) => {
  // A rejection tells the browser to try this sync again later, with its own back-off.
  if (event.tag === SYNC_TAG) event.waitUntil(replayFromWorker(true));
}) as EventListener);
