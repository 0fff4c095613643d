import MiniSearch from 'minisearch';

/**
 * The keyword baseline semantic search must beat: MiniSearch's BM25 over the same passages, with
 * its default settings (its own tokenizer, no stemming, no prefix or fuzzy matching).
 */
export function keywordBaseline(texts: string[]): (query: string, k: number) => number[] {
  const search = new MiniSearch<{ id: number; text: string }>({ fields: ['text'] });
  search.addAll(texts.map((text, id) => ({ id, text })));
  return (query, k) => search.search(query).slice(0, k).map((hit) => hit.id as number);
}
