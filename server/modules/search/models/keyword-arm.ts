import MiniSearch from 'minisearch';
import { sentenceSpans } from '../../book/index.ts';
import type { RankedPassage } from '../../../../common/search/passage-index.ts';

/** The keyword arm as the API shows it: `model_type` "BM25 minisearch", id `bm25`. */
export const KEYWORD_ARM = { id: 'bm25', family: 'BM25', name: 'minisearch' } as const;

/** MiniSearch's own BM25+ settings (its defaults), named so that the score's ceiling can be worked out. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

type Doc = { id: number; text: string };

/**
 * Words, not meaning: MiniSearch's BM25 over the same passages, with its default settings (its own
 * tokenizer, lower-casing, no stemming, no prefix or fuzzy matching). The arena's keyword arm, and
 * the evaluation's baseline, so that readers answer whether meaning beats words.
 *
 * A BM25 score has no fixed scale, so `similarity` is the score as a share of the most the
 * query's words could earn in any passage (each term at most idf × (d + k + 1), the sum times
 * MiniSearch's count of matched terms): 0 to 1, in the order of the score.
 */
export class KeywordIndex {
  readonly count: number;
  private readonly index: MiniSearch<Doc>;
  /** In how many passages each term appears. */
  private readonly documentFrequency = new Map<string, number>();
  private readonly tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
  private readonly processTerm = MiniSearch.getDefault('processTerm') as (term: string) => string | string[] | null | undefined | false;

  constructor(private readonly texts: string[]) {
    this.count = texts.length;
    this.index = new MiniSearch<Doc>({ fields: ['text'], searchOptions: { bm25: BM25 } });
    this.index.addAll(texts.map((text, id) => ({ id, text })));
    for (const text of texts) {
      for (const term of new Set(this.terms(text))) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    }
  }

  /** The distinct terms of the book: the dimension of its (sparse) term vectors. */
  get vocabulary(): number {
    return this.documentFrequency.size;
  }

  /** The terms MiniSearch reads in a text, in order, repeats kept. */
  private terms(text: string): string[] {
    return this.tokenize(text)
      .flatMap((token) => this.processTerm(token) || [])
      .filter((term) => term.length > 0);
  }

  /** MiniSearch's inverse document frequency of a term (0 for one the book never uses). */
  private idf(term: string): number {
    const n = this.documentFrequency.get(term);
    return n ? Math.log(1 + (this.count - n + 0.5) / (n + 0.5)) : 0;
  }

  /** The k passages that score best, best first; none for a query sharing no word with the book. */
  search(query: string, k: number): Array<{ passage: number; similarity: number }> {
    const hits = this.index.search(query).slice(0, k);
    if (hits.length === 0) return [];
    const known = this.terms(query).filter((term) => this.documentFrequency.has(term));
    const ceiling = new Set(known).size * known.reduce((sum, term) => sum + this.idf(term) * (BM25.d + BM25.k + 1), 0);
    return hits.map((hit) => ({ passage: hit.id as number, similarity: ceiling > 0 ? Math.min(1, hit.score / ceiling) : 0 }));
  }

  /** `search`'s passages, each with its `bestSentence` (the query's words weighed once for all of them). */
  rank(query: string, k: number): RankedPassage[] {
    const hits = this.search(query, k);
    if (hits.length === 0) return hits;
    const wanted = this.wanted(query);
    return hits.map((hit) => {
      const highlight = this.sentenceOf(hit.passage, wanted);
      return highlight ? { ...hit, highlight } : hit;
    });
  }

  /**
   * The passage's sentence holding the rarest of the query's words (the largest sum of their
   * idf, each word once; the first such), as character offsets into its text.
   */
  bestSentence(passage: number, query: string): { start: number; end: number } | undefined {
    return this.sentenceOf(passage, this.wanted(query));
  }

  /** The query's words, each with its idf. */
  private wanted(query: string): Map<string, number> {
    return new Map(this.terms(query).map((term) => [term, this.idf(term)]));
  }

  private sentenceOf(passage: number, wanted: ReadonlyMap<string, number>): { start: number; end: number } | undefined {
    const text = this.texts[passage]!;
    let best: { start: number; end: number } | undefined;
    let bestWeight = 0;
    for (const [start, end] of sentenceSpans(text)) {
      let weight = 0;
      for (const term of new Set(this.terms(text.slice(start, end)))) weight += wanted.get(term) ?? 0;
      if (weight > bestWeight) [best, bestWeight] = [{ start, end }, weight];
    }
    return best;
  }
}
