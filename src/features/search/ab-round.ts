import { chooseAbPair } from './choose-ab-pair.ts';
import type { LabelledResult, SearchResult } from '../../lib/search-result.ts';

/** One search's comparison: the reader's votes on its A and B share its id. */
export interface AbRound {
  id: string;
  query: string;
  pair: LabelledResult[];
}

/** Before any search, and after a blank one: nothing to compare. */
export const NO_ROUND: AbRound = { id: '', query: '', pair: [] };

export interface RoundSource {
  newId: () => string;
  random: () => number;
}

const browserSource: RoundSource = { newId: () => crypto.randomUUID(), random: Math.random };

/**
 * A new round for a result list that has just arrived: a fresh id and a fresh random A/B order.
 * Made once per arrival (never while rendering), so a round's id and order never change under
 * the reader's votes.
 */
export function startRound(query: string, results: SearchResult[], source: RoundSource = browserSource): AbRound {
  return { id: source.newId(), query, pair: chooseAbPair(results, source.random) };
}
