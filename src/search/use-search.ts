import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { searchPassages } from '../api/search-api.ts';
import type { SearchResult } from './types.ts';

export interface SearchState {
  status: 'idle' | 'loading' | 'done' | 'error';
  query: string;
  results: SearchResult[];
  error: string | null;
}

const IDLE: SearchState = { status: 'idle', query: '', results: [], error: null };

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
    try {
      const results = await searchPassages(query, 'both');
      if (ticket === latest.current) setState({ status: 'done', query, results, error: null });
    } catch (error) {
      const message = error instanceof ApiError || error instanceof Error ? error.message || 'Failed to perform search' : 'Failed to perform search';
      if (ticket === latest.current) setState({ status: 'error', query, results: [], error: message });
    }
  }, []);
  return { ...state, run };
}
