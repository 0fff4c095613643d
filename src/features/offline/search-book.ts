import { ApiError } from '../../api/api-error.ts';
import { searchPassages } from '../../api/search-api.ts';
import type { SearchResult } from '../../search/types.ts';
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

export interface SearchBookOptions {
  device?: DeviceAnswerer;
  /** How long the server has before the device answers instead. */
  waitMs?: number;
  online?: () => boolean;
}

/**
 * A question as the dashboard asks it (both models). Online, the server answers, as always. Where
 * this device keeps the book, it answers instead when the browser is offline, or the server does
 * not answer within `waitMs`, cannot be reached, or cannot serve now (fallback-rule.ts); the
 * server's request is then called off. Otherwise the server's error stands, as before.
 */
export async function searchBook(query: string, options: SearchBookOptions = {}): Promise<BookAnswer> {
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
  if (!keepsBook) return { results: await searchPassages(query, 'both'), answeredOn: 'server' };

  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<ServerOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'too-late' }), options.waitMs ?? SERVER_WAIT_MS);
  });
  let results: SearchResult[] = [];
  const asked = searchPassages(query, 'both', controller.signal).then(
    (answer): ServerOutcome => {
      results = answer;
      return { kind: 'answered' };
    },
    (error: unknown): ServerOutcome => ({ kind: 'failed', error }),
  );
  const outcome = await Promise.race([asked, late]);
  clearTimeout(timer);
  if (outcome.kind === 'answered') return { results, answeredOn: 'server' };
  if (!deviceAnswers(outcome, keepsBook)) throw outcome.kind === 'failed' ? outcome.error : new ApiError('network', 'Search failed');
  controller.abort();
  try {
    return { results: await device.answer(query), answeredOn: 'device' };
  } catch {
    // The device could not answer either: the reader is told what the server's attempt came to.
    throw outcome.kind === 'failed' ? outcome.error : new ApiError('network', 'Search failed');
  }
}
