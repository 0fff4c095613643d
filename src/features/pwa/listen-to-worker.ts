import { messageToPage, type MessageToPage } from './worker-messages.ts';

/** Calls `handle` with each message the service worker sends this page. Returns a function that stops it. */
export function listenToWorker(handle: (message: MessageToPage) => void): () => void {
  const onMessage = (event: MessageEvent) => {
    const message = messageToPage(event.data);
    if (message) handle(message);
  };
  navigator.serviceWorker?.addEventListener('message', onMessage);
  return () => navigator.serviceWorker?.removeEventListener('message', onMessage);
}
