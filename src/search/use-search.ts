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

/**
 * How long the same question asked again while it loads is taken as the same press (a double
 * click), not sent again; after that it is sent again, in case the first request has stalled.
 */
export const SAME_QUESTION_AGAIN_MS = 3_000;

/**
 * Idle, then loading, then results or an error. A blank query clears results without a call. A
 * new question asked while one is loading is searched, and only the newest one's answer is
 * shown; the same question asked again as it loads is sent once (within 3 s, a double press). While loading, the
 * results and their query stay those shown, so the results on screen always say what they answer.
 */
export function useSearch() {
  const [state, setState] = useState<SearchState>(IDLE);
  const latest = useRef(0);
  const inFlight = useRef<{ query: string; sentAt: number } | null>(null);
  const run = useCallback(async (raw: string) => {
    const query = raw.trim();
    const sending = inFlight.current;
    if (query && sending?.query === query && Date.now() - sending.sentAt < SAME_QUESTION_AGAIN_MS) return;
    const ticket = ++latest.current;
    if (!query) {
      inFlight.current = null;
      setState(IDLE);
      return;
    }
    inFlight.current = { query, sentAt: Date.now() };
    setState((s) => ({ ...s, status: 'loading', error: null }));
    let next: SearchState;
    try {
      // The round is made here, once, as the results arrive: not while rendering them.
      next = searchDone(query, await searchPassages(query, 'both'));
    } catch (error) {
      next = searchFailed(query, error);
    }
    if (ticket !== latest.current) return;
    inFlight.current = null;
    setState(next);
  }, []);
  return { ...state, run };
}
