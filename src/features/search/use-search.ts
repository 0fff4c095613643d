import { useCallback } from 'react';
import { create } from 'zustand';
import { useSession } from '../session/index.ts';
import { ApiError } from '../../lib/api/api-error.ts';
import { requestServerData } from '../../lib/api/server-data.ts';
import { searchPassages } from './search-api.ts';
import { searchBook } from '../offline/index.ts';
import { NO_ROUND, startRound, type AbRound, type RoundSource } from './ab-round.ts';
import type { SearchResult } from '../../lib/search-result.ts';
import { DEVICE_RECEIPT } from '../../../contract/vocabulary.ts';

export interface SearchState {
  status: 'idle' | 'loading' | 'done' | 'error';
  query: string;
  results: SearchResult[];
  error: string | null;
  /** The A/B round of the latest results, made when they arrived. */
  round: AbRound;
  /** 'device' when the offline book on this device answered, the server not (features/offline). */
  answeredOn?: 'server' | 'device';
  /** A failure that asking again may mend: the server could not be reached, or could not serve. */
  retryable?: boolean;
}

const IDLE: SearchState = { status: 'idle', query: '', results: [], error: null, round: NO_ROUND };

/** The state once the results for `query` have arrived: with them, a new round. */
export function searchDone(query: string, results: SearchResult[], source?: RoundSource): SearchState {
  return { status: 'done', query, results, error: null, round: startRound(query, results, source) };
}

/** The state when the search for `query` failed: the results are emptied, the message shown. */
export function searchFailed(query: string, error: unknown): SearchState {
  const message = error instanceof Error && error.message ? error.message : 'Failed to perform search';
  const retryable = !(error instanceof ApiError) || error.retryable;
  return { status: 'error', query, results: [], error: message, round: NO_ROUND, retryable };
}

/**
 * How long the same question asked again while it loads is taken as the same press (a double
 * click), not sent again; after that it is sent again, in case the first request has stalled.
 */
export const SAME_QUESTION_AGAIN_MS = 3_000;

/** Both models' first passages: the A/B round compares them. */
const MODELS = 'both';

/** A search's key in the server data: the request it stands for. */
const searchKey = (query: string): string => `POST /search ${JSON.stringify({ query, models: MODELS })}`;

/**
 * The dashboard's last search, kept while the app is open (not across a reload): a reader who
 * opens Insights and comes Back finds the question, the results and the round they left, and an
 * answer that arrived meanwhile. Its reader's only: another reader signed in here starts afresh.
 */
const useLastSearch = create<{ owner: string | null; state: SearchState; draft: string }>(() => ({ owner: null, state: IDLE, draft: '' }));
// Signing out leaves nothing of the reader's search behind for whoever uses the device next.
// A search still on its way is dropped with it: its answer is not written back under the reader
// who left (the next reader asking the same question meanwhile gets it from that request).
useSession.subscribe((session, before) => {
  if (before.user && !session.user) {
    latest += 1;
    useLastSearch.setState({ owner: null, state: IDLE, draft: '' });
  }
});
/** Counts the questions asked: only the newest one's answer is shown. */
let latest = 0;

/** The question being written, as the reader left it. */
export function useSearchDraft(owner: string | null): [string, (draft: string) => void] {
  const draft = useLastSearch((s) => (s.owner === owner ? s.draft : ''));
  return [draft, (text) => useLastSearch.setState({ owner, draft: text, ...(useLastSearch.getState().owner === owner ? {} : { state: IDLE }) })];
}

/**
 * Idle, then loading, then results or an error. A blank query clears results without a call. A
 * new question asked while one is loading is searched, and only the newest one's answer is
 * shown; the same question asked again as it loads is sent once (within 3 s, a double press),
 * after that again, its stalled request aborted. While loading, the results and their query stay
 * those shown, so the results on screen always say what they answer.
 */
export function useSearch(owner: string | null = null) {
  const state = useLastSearch((s) => (s.owner === owner ? s.state : IDLE));
  const run = useCallback(
    async (raw: string) => {
      const setState = (next: SearchState | ((s: SearchState) => SearchState)) => {
        const kept = useLastSearch.getState();
        const current = kept.owner === owner ? kept.state : IDLE;
        useLastSearch.setState({ owner, state: typeof next === 'function' ? next(current) : next, draft: kept.owner === owner ? kept.draft : '' });
      };
      const query = raw.trim();
      const ticket = ++latest;
      if (!query) {
        setState(IDLE);
        return;
      }
      setState((s) => ({ ...s, status: 'loading', error: null }));
      // The same question asked again while it loads shares its request, unless that has stalled.
      // The server answers; where it cannot, the offline book on this device does (features/offline).
      const settled = await requestServerData(
        searchKey(query),
        (signal) => searchBook(query, (serverSignal) => searchPassages(query, MODELS, serverSignal), { signal }),
        { stalledAfterMs: SAME_QUESTION_AGAIN_MS },
      );
      if (ticket !== latest) return;
      // The round is made here, once, as the results arrive: not while rendering them.
      // A round the device answered is the device's own draw: its votes say so (the server works it out again).
      const results = settled.ok && settled.value.answeredOn === 'device' ? settled.value.results.map((r) => ({ ...r, receipt: DEVICE_RECEIPT })) : settled.ok ? settled.value.results : [];
      setState(settled.ok ? { ...searchDone(query, results), answeredOn: settled.value.answeredOn } : searchFailed(query, settled.error));
    },
    [owner],
  );
  return { ...state, run };
}
