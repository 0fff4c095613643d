/**
 * The PWA's public entry: what other features may use of it (docs/client.md). Feedback hears
 * from the service worker when it has sent the votes it was holding.
 */
export { listenToWorker } from './listen-to-worker.ts';
