/// <reference lib="webworker" />
// The search worker (device-search.ts starts it): answers questions from the offline pack kept
// on this device, with the code the server answers them with (common/offline/pack-search.ts).
import { openPack, type PackSearch } from '../../../common/offline/pack-search.ts';
import { readPack } from './pack-store.ts';
import type { WorkerReply, WorkerRequest } from './search-worker-messages.ts';

declare const self: DedicatedWorkerGlobalScope;

let loading: Promise<{ search: PackSearch; ms: number }> | null = null;

/** The kept pack, opened once: a question's first words build the lexicon's tables, so one is asked as it loads. */
function loaded(): Promise<{ search: PackSearch; ms: number }> {
  loading ??= (async () => {
    const started = performance.now();
    const pack = await readPack();
    if (!pack) throw new Error('The book is not kept on this device');
    const search = openPack(pack.bytes);
    await search.search('the heart and the soul');
    return { search, ms: performance.now() - started };
  })();
  loading.catch(() => (loading = null));
  return loading;
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  let reply: WorkerReply;
  try {
    switch (request.type) {
      case 'forget':
        loading = null;
        return;
      case 'load': {
        const { search, ms } = await loaded();
        reply = { id: request.id, loaded: { version: search.version, ms } };
        break;
      }
      case 'search':
        reply = { id: request.id, results: await (await loaded()).search.search(request.query) };
        break;
    }
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
