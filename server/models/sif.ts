import { contentWords } from './text.ts';
import { fitLexicon, lexiconFor, type LexiconData } from './lexicon.ts';
import { firstPrincipalComponent, normalise, removeDirection, topEigenSparse, type SparseMatrix } from './linalg.ts';
import { countTerms, vocabularyFromList } from './bag-of-terms.ts';
import { corpusModel, glossName, glossVersion, type CorpusModelRecipe, type EmbeddingModel, type FittedState, type ModelResources } from './types.ts';
import { DEFAULT_ENGLISH_A, englishBlockFor } from './english-block.ts';
import { WORD_VECTOR_DIMS } from './word-vectors.ts';
import { glossaryVersion } from './reader-thesaurus.ts';
import { bookWords, typosVersion } from './spelling.ts';
import { querySpelling } from './query-spelling.ts';

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

export const DEFAULT_SIF: SifOptions = { dims: 100, window: 5, a: 1e-3 };

/**
 * Word vectors learnt from the book's own word co-occurrences (positive PMI, factorised), and a
 * passage is the smooth-inverse-frequency weighted mean of its words' vectors, with the
 * corpus's common direction removed (Arora et al. 2017). Words used in the same company score
 * alike even when they never share a passage.
 */
export function sifRecipe(options: SifOptions = DEFAULT_SIF, resources: ModelResources = {}): CorpusModelRecipe {
  const { dims, window, a, wordnet = false, expansion = 0, english = 0, englishA = DEFAULT_ENGLISH_A, glossary = 0, gloss = 0, typos = false } = options;
  return {
    id: `sif-${dims}`,
    family: 'SIF',
    name: `ppmi-word-vectors-${dims}${english > 0 ? `+glove-${WORD_VECTOR_DIMS}` : ''}${wordnet ? '-wordnet' : ''}${wordnet && glossary > 0 ? '+thesaurus' : ''}${glossName(gloss)}`,
    version: `5:${dims}:${window}:${a}:${wordnet}:${expansion}:${english}:${englishA}${english > 0 ? `:${resources.words?.source}` : ''}${glossaryVersion(wordnet ? glossary : 0)}${glossVersion(gloss)}${typosVersion(typos)}`,
    ...(gloss > 0 ? { glossWeight: gloss } : {}),
    fit: (passages) => fitSif(passages, options, resources),
    restore: (state) => restoreSif(state, options, resources),
  };
}

function fitSif(passages: string[], options: SifOptions, resources: ModelResources): FittedState {
  const lexiconData = options.wordnet ? fitLexicon(passages, (options.glossary ?? 0) > 0, options.typos) : undefined;
  const lexicon = lexiconData ? lexiconFor(lexiconData) : undefined;
  const sequences = passages.map((p) => contentWords(p, lexicon?.isWord).map((w) => w.term));
  const vocabulary = new Map<string, number>();
  for (const seq of sequences) for (const t of seq) if (!vocabulary.has(t)) vocabulary.set(t, vocabulary.size);
  const v = vocabulary.size;
  const ids = sequences.map((seq) => seq.map((t) => vocabulary.get(t)!));
  const vocabularyList = [...vocabulary.keys()];

  // Symmetric co-occurrence counts, nearer neighbours weighing more.
  const pairs = new Map<number, number>();
  const unigram = new Float64Array(v);
  let tokens = 0;
  for (const seq of ids) {
    for (let i = 0; i < seq.length; i++) {
      unigram[seq[i]!]! += 1;
      tokens += 1;
      for (let d = 1; d <= options.window && i + d < seq.length; d++) {
        const x = seq[i]!;
        const y = seq[i + d]!;
        if (x === y) continue;
        const w = 1 / d;
        pairs.set(x * v + y, (pairs.get(x * v + y) ?? 0) + w);
        pairs.set(y * v + x, (pairs.get(y * v + x) ?? 0) + w);
      }
    }
  }
  const rowTotal = new Float64Array(v);
  let total = 0;
  for (const [key, c] of pairs) {
    rowTotal[Math.floor(key / v)]! += c;
    total += c;
  }
  // Context distribution smoothing (α = 0.75) keeps rare words from dominating PMI.
  const smoothed = Float64Array.from(rowTotal, (c) => c ** 0.75);
  const smoothedTotal = smoothed.reduce((s, c) => s + c, 0);
  const entries: Array<[number, number, number]> = [];
  for (const [key, c] of pairs) {
    const i = Math.floor(key / v);
    const j = key % v;
    const pmi = Math.log((c / total) / ((rowTotal[i]! / total) * (smoothed[j]! / smoothedTotal)));
    if (pmi > 0) entries.push([i, j, pmi]);
  }
  entries.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const matrix: SparseMatrix = {
    n: v,
    rowStart: new Int32Array(v + 1),
    cols: Int32Array.from(entries, (e) => e[1]),
    values: Float64Array.from(entries, (e) => e[2]),
  };
  for (const [i] of entries) matrix.rowStart[i + 1]! += 1;
  for (let i = 0; i < v; i++) matrix.rowStart[i + 1]! += matrix.rowStart[i]!;

  const k = Math.min(options.dims, v);
  const { values, vectors } = topEigenSparse(matrix, k);
  const wordVectors = new Float32Array(v * k);
  for (let w = 0; w < v; w++) {
    const row = new Float32Array(k);
    for (let c = 0; c < k; c++) row[c] = vectors[w * k + c]! * Math.sqrt(Math.max(values[c]!, 0));
    wordVectors.set(normalise(row), w * k);
  }
  const weights = Float32Array.from(unigram, (count) => options.a / (options.a + count / tokens));

  // The common direction: the first principal component of the passages' raw means.
  const raw = ids.map((seq) => weightedMean(seq, wordVectors, weights, k));
  const common = firstPrincipalComponent(raw, k);
  const arrays: Record<string, Float32Array> = { wordVectors, weights, common };
  const english = englishBlockFor(options.english, options.englishA, resources, lexicon?.isWord);
  if (english) arrays.englishCommon = english.sharedDirection(passages);
  const spelling = options.typos ? { spelling: bookWords(passages).join(' ') } : {};
  return { meta: { vocabulary: vocabularyList, dims: k, lexicon: lexiconData, ...spelling }, arrays };
}

function weightedMean(seq: number[], wordVectors: Float32Array, weights: Float32Array, k: number, scale?: number[]): Float32Array {
  const out = new Float32Array(k);
  if (seq.length === 0) return out;
  let total = 0;
  seq.forEach((id, i) => {
    const w = weights[id]! * (scale?.[i] ?? 1);
    total += scale?.[i] ?? 1;
    for (let c = 0; c < k; c++) out[c]! += w * wordVectors[id * k + c]!;
  });
  for (let c = 0; c < k; c++) out[c]! /= total;
  return out;
}

function restoreSif(state: FittedState, options: SifOptions, resources: ModelResources): EmbeddingModel {
  const vocabulary = vocabularyFromList(state.meta.vocabulary);
  const lexicon = state.meta.lexicon ? lexiconFor(state.meta.lexicon as LexiconData) : undefined;
  const k = Number(state.meta.dims);
  const { wordVectors, weights, common } = state.arrays as Record<'wordVectors' | 'weights' | 'common', Float32Array>;
  const english = englishBlockFor(options.english, options.englishA, resources, lexicon?.isWord, state.arrays.englishCommon);
  const englishDims = english?.dims ?? 0;
  const embed = (text: string, expansion: number, glossary: number): Float32Array => {
    // Its words and, with a lexicon, their relatives in the book, each with how much it counts.
    const counts = countTerms(text, vocabulary, lexicon, expansion, glossary);
    const own = normalise(removeDirection(weightedMean([...counts.keys()], wordVectors, weights, k, [...counts.values()]), common));
    if (!english) return own;
    // The book's part and the English part, each unit length, the English one counting `english`;
    // only where the book's words say something: a query of words the book never uses stays zero.
    const out = new Float32Array(k + englishDims);
    out.set(own, 0);
    if (counts.size > 0) english.appendTo(out, k, text, options.english ?? 0);
    return normalise(out);
  };
  // A query, its slips mended, also counts for its words' WordNet and thesaurus relatives in the book; a passage only for its own words.
  const model = corpusModel(sifRecipe(options, resources), k + englishDims, (text) => embed(text, 0, 0));
  const mend = querySpelling(state, options.typos ?? false, resources, lexicon);
  return {
    ...model,
    sentenceWeight: options.sentenceWeight ?? 0,
    embedQuery: async (text) => embed(mend(text), options.expansion ?? 0, options.glossary ?? 0),
  };
}
