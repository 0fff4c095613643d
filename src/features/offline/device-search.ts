import type { SearchResult } from '../../lib/search-result.ts';
import type { WorkerAsk, WorkerReply, WorkerRequest } from './search-worker-messages.ts';

/**
 * The page's side of the search worker (search-worker.ts), which answers questions from the
 * offline book kept on this device. The worker and the pack's code load on the first question
 * (or `loadOnDevice`), never with the page.
 */
let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();

function failAll(error: Error): void {
  for (const { reject } of waiting.values()) reject(error);
  waiting.clear();
  worker?.terminate();
  worker = null;
}

function ask(request: WorkerAsk): Promise<WorkerReply> {
  if (!worker) {
    worker = new Worker(new URL('./search-worker.ts', import.meta.url), { type: 'module', name: 'offline-search' });
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      waiting.get(reply.id)?.resolve(reply);
      waiting.delete(reply.id);
    };
    // The worker's code could not be had or run: every question waiting is told, and the next starts a new worker.
    worker.onerror = (event) => {
      event.preventDefault();
      failAll(new Error(event.message || 'The search on this device stopped'));
    };
  }
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker!.postMessage({ ...request, id } satisfies WorkerRequest);
  });
}

/** The offline book's answer to a question, as the server would give it. */
export async function searchOnDevice(query: string): Promise<SearchResult[]> {
  const reply = await ask({ type: 'search', query });
  if ('error' in reply) throw new Error(reply.error);
  if (!('results' in reply)) throw new Error('The search on this device gave no results');
  return reply.results;
}

/** Loads the kept pack into the worker ahead of the first question: its version, and how long it took there. */
export async function loadOnDevice(): Promise<{ version: string; ms: number }> {
  const reply = await ask({ type: 'load' });
  if ('error' in reply) throw new Error(reply.error);
  if (!('loaded' in reply)) throw new Error('The search on this device did not load');
  return reply.loaded;
}

/** A new pack was kept (or the pack removed): the next question reads what is kept now. */
export function forgetLoadedPack(): void {
  worker?.postMessage({ type: 'forget', id: ++nextId } satisfies WorkerRequest);
}
