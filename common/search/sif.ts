import { lexiconFor, type LexiconData } from './lexicon.ts';
import { normalise, removeDirection } from './linalg.ts';
import { countTerms, questionReader, vocabularyFromList } from './bag-of-terms.ts';
import { corpusModel, type EmbeddingModel, type FittedState, type ModelIdentity, type ModelResources } from './types.ts';
import { englishBlockFor } from './english-block.ts';
import { querySpelling } from './query-spelling.ts';
import { RowSum } from './row-sum.ts';

export interface SifOptions {
  dims: number;
  /** Co-occurrence window, in content words either side. */
  window: number;
  /** SIF's smoothing: rarer words weigh more, a/(a + p(w)). */
  a: number;
  /** WordNet: archaic and inflected forms modernised, unknown query words mapped to the book's. */
  wordnet?: boolean;
  /** How much a query word also counts for its WordNet relatives in the book. */
  expansion?: number;
  /** Weight of the general-English (GloVe) block beside the book's word vectors' one (0: none). */
  english?: number;
  /** The English block's SIF smoothing. */
  englishA?: number;
  /** How much a passage's best sentence counts in its rank beside the passage itself (0: not at all). */
  sentenceWeight?: number;
  /** How much a query word also counts for the book's words the reader's thesaurus gives for it (0: no thesaurus; needs `wordnet`). */
  glossary?: number;
  /** How much a passage's gloss counts beside its text (types.ts, `glossWeight`; 0: no gloss). */
  gloss?: number;
  /** A misspelt query word read as the closest word the book or English has (spelling.ts). */
  typos?: boolean;
}

/**
 * SIF's mean of words' vectors: each word's vector times its weight (`weights`, the rarer the
 * more) and its count, over the sum of the counts; zeros for no word. `vectors` holds the word
 * vectors (wordVectorRows).
 */
export function weightedMean(vectors: RowSum, weights: Float32Array, counts: ReadonlyMap<number, number> | ReadonlyArray<[id: number, count: number]>): Float32Array {
  let total = 0;
  for (const [, n] of counts) total += n;
  const out = vectors.sum(counts, weights);
  if (total > 0) for (let c = 0; c < out.length; c++) out[c]! /= total;
  return out;
}

/** Word vectors, `k` values a word, for weightedMean. */
export function wordVectorRows(wordVectors: Float32Array, k: number): RowSum {
  return new RowSum(wordVectors.length / k, k, (id, into) => into.set(wordVectors.subarray(id * k, (id + 1) * k)));
}

/**
 * A SIF model from its fitted state (server/modules/search/fit/sif-fit.ts fits it): what the server restores
 * from its cache and a device from its offline pack, with the same code.
 */
export function restoreSif(state: FittedState, options: SifOptions, resources: ModelResources, identity: ModelIdentity): EmbeddingModel {
  const vocabulary = vocabularyFromList(state.meta.vocabulary);
  const lexicon = state.meta.lexicon ? lexiconFor(state.meta.lexicon as LexiconData) : undefined;
  const k = Number(state.meta.dims);
  const { wordVectors, weights, common } = state.arrays as Record<'wordVectors' | 'weights' | 'common', Float32Array>;
  const english = englishBlockFor(options.english, options.englishA, resources, lexicon?.isWord, state.arrays.englishCommon);
  const englishDims = english?.dims ?? 0;
  const vectors = wordVectorRows(wordVectors, k);
  // From a text's words and, with a lexicon, their relatives in the book, each with how much it counts.
  const embed = (counts: Map<number, number>, text: string): Float32Array => {
    const own = normalise(removeDirection(weightedMean(vectors, weights, counts), common));
    if (!english) return own;
    // The book's part and the English part, each unit length, the English one counting `english`;
    // only where the book's words say something: a query of words the book never uses stays zero.
    const out = new Float32Array(k + englishDims);
    out.set(own, 0);
    if (counts.size > 0) english.appendTo(out, k, text, options.english ?? 0);
    return normalise(out);
  };
  // A query, its slips mended, also counts for its words' WordNet and thesaurus relatives in the book; a passage only for its own words.
  const model = corpusModel(identity, k + englishDims, (text) => embed(countTerms(text, vocabulary, lexicon), text));
  const read = questionReader(querySpelling(state, options.typos ?? false, resources, lexicon), vocabulary, lexicon, options.expansion ?? 0, options.glossary ?? 0);
  return {
    ...model,
    sentenceWeight: options.sentenceWeight ?? 0,
    embedQuery: async (text) => {
      const { counts, mended } = read(text);
      return embed(counts, mended);
    },
    bookShare: (text) => read(text).share,
    markTerms: {
      question: (text) => weighed(read(text).counts, weights),
      sentence: (text) => weighed(countTerms(text, vocabulary, lexicon), weights),
    },
  };
}

/** Each term's count times its SIF weight (the rarer in the book, the more). */
function weighed(counts: Map<number, number>, weights: Float32Array): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, n] of counts) out.set(id, n * weights[id]!);
  return out;
}
