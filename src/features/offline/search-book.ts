import { ApiError } from '../../lib/api/api-error.ts';
import type { SearchResult } from '../../lib/search-result.ts';
import { searchOnDevice } from './device-search.ts';
import { asksServer, deviceAnswers, SERVER_WAIT_MS, type ServerOutcome } from './fallback-rule.ts';
import { readPackInfo } from './pack-store.ts';

/** The search worker, or what stands in for it. */
export interface DeviceAnswerer {
  /** Whether this device keeps the book. */
  keepsBook(): Promise<boolean>;
  answer(query: string): Promise<SearchResult[]>;
}

export const thisDevice: DeviceAnswerer = {
  keepsBook: async () => (await readPackInfo().catch(() => undefined)) !== undefined,
  answer: searchOnDevice,
};

export interface BookAnswer {
  results: SearchResult[];
  /** Where the results were found: the device answers only when the server cannot. */
  answeredOn: 'server' | 'device';
}

/** The server's search (POST /api/search, both models), called off by `signal`. */
export type AskServer = (signal: AbortSignal) => Promise<SearchResult[]>;

export interface SearchBookOptions {
  /** Calls the whole search off (the caller asks again): neither the server nor the device answers then. */
  signal?: AbortSignal;
  device?: DeviceAnswerer;
  /** How long the server has before the device answers instead. */
  waitMs?: number;
  online?: () => boolean;
}

/**
 * A question as the dashboard asks it (both models). Online, the server answers (`askServer`),
 * as always. Where this device keeps the book, it answers instead when the browser is offline, or
 * the server does not answer within `waitMs`, cannot be reached, or cannot serve now
 * (fallback-rule.ts); the server's request is then called off. Otherwise the server's error
 * stands, as before.
 */
export async function searchBook(query: string, askServer: AskServer, options: SearchBookOptions = {}): Promise<BookAnswer> {
  const device = options.device ?? thisDevice;
  const online = (options.online ?? (() => navigator.onLine))();
  const keepsBook = await device.keepsBook().catch(() => false);
  if (!asksServer(online, keepsBook)) {
    try {
      return { results: await device.answer(query), answeredOn: 'device' };
    } catch {
      throw new ApiError('network', 'Search failed');
    }
  }
  const controller = new AbortController();
  const callOff = () => controller.abort();
  options.signal?.addEventListener('abort', callOff, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if (!keepsBook) return { results: await askServer(controller.signal), answeredOn: 'server' };
    const late = new Promise<ServerOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'too-late' }), options.waitMs ?? SERVER_WAIT_MS);
    });
    let results: SearchResult[] = [];
    const asked = askServer(controller.signal).then(
      (answer): ServerOutcome => {
        results = answer;
        return { kind: 'answered' };
      },
      (error: unknown): ServerOutcome => ({ kind: 'failed', error }),
    );
    const outcome = await Promise.race([asked, late]);
    if (outcome.kind === 'answered') return { results, answeredOn: 'server' };
    const serverError = outcome.kind === 'failed' ? outcome.error : new ApiError('network', 'Search failed');
    if (options.signal?.aborted || !deviceAnswers(outcome, keepsBook)) throw serverError;
    controller.abort();
    try {
      return { results: await device.answer(query), answeredOn: 'device' };
    } catch {
      // The device could not answer either: the reader is told what the server's attempt came to.
      throw serverError;
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', callOff);
  }
}
