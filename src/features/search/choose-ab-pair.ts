import type { LabelledResult, SearchResult } from '../../lib/search-result.ts';

/**
 * The two results a reader compares: the first BGE result and the first UAE result (or, when
 * the list lacks one of them, its first two), in random order, labelled A and B.
 */
export function chooseAbPair(results: SearchResult[], random: () => number = Math.random): LabelledResult[] {
  const bge = results.find((r) => r.model_type?.includes('BGE'));
  const uae = results.find((r) => r.model_type?.includes('UAE'));
  const pair = bge && uae ? [bge, uae] : results.slice(0, 2);
  if (pair.length === 2 && random() < 0.5) pair.reverse();
  return pair.map((result, i) => ({ ...result, resultLabel: i === 0 ? 'A' : 'B' }));
}
