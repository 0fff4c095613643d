import type { SearchResult } from '../../lib/search-result.ts';

/** What the page asks the search worker. */
export type WorkerAsk =
  | { type: 'search'; query: string }
  | { type: 'load' }
  /** The kept pack changed: the next question loads it anew (a question under way finishes with the pack it began with). */
  | { type: 'forget' };

export type WorkerRequest = WorkerAsk & { id: number };

/** What the worker answers, by the request's id. */
export type WorkerReply =
  | { id: number; results: SearchResult[] }
  | { id: number; loaded: { version: string; ms: number } }
  | { id: number; error: string };
