import { KeywordIndex } from '../modules/search/index.ts';

/**
 * The keyword baseline semantic search must beat: the arena's keyword arm (MiniSearch's BM25
 * over the same passages, with its default settings: its own tokenizer, no stemming, no prefix
 * or fuzzy matching), ranking passage positions.
 */
export function keywordBaseline(texts: string[]): (query: string, k: number) => number[] {
  const index = new KeywordIndex(texts);
  return (query, k) => index.search(query, k).map((hit) => hit.passage);
}
