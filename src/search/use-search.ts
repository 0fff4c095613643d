import { useCallback, useRef, useState } from 'react';
import { searchPassages } from '../api/search-api.ts';
import { NO_ROUND, startRound, type AbRound, type RoundSource } from './ab-round.ts';
import type { SearchResult } from './types.ts';

export interface SearchState {
  status: 'idle' | 'loading' | 'done' | 'error';
  query: string;
  results: SearchResult[];
  error: string | null;
  /** The A/B round of the latest results, made when they arrived. */
  round: AbRound;
}

const IDLE: SearchState = { status: 'idle', query: '', results: [], error: null, round: NO_ROUND };

/** The state once the results for `query` have arrived: with them, a new round. */
export function searchDone(query: string, results: SearchResult[], source?: RoundSource): SearchState {
  return { status: 'done', query, results, error: null, round: startRound(query, results, source) };
}

/** The state when the search for `query` failed: the results are emptied, the message shown. */
export function searchFailed(query: string, error: unknown): SearchState {
  const message = error instanceof Error && error.message ? error.message : 'Failed to perform search';
  return { status: 'error', query, results: [], error: message, round: NO_ROUND };
}

/** Idle, then loading, then results or an error. A blank query clears results without a call. */
export function useSearch() {
  const [state, setState] = useState<SearchState>(IDLE);
  const latest = useRef(0);
  const run = useCallback(async (raw: string) => {
    const query = raw.trim();
    const ticket = ++latest.current;
    if (!query) {
      setState(IDLE);
      return;
    }
    setState((s) => ({ ...s, status: 'loading', error: null }));
    let results: SearchResult[];
    try {
      results = await searchPassages(query, 'both');
    } catch (error) {
      if (ticket === latest.current) setState(searchFailed(query, error));
      return;
    }
    // The round is made here, once, as the results arrive: not while rendering them.
    if (ticket === latest.current) setState(searchDone(query, results));
  }, []);
  return { ...state, run };
}
