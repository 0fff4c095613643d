import { contentWords } from '../../../../common/search/text.ts';
import { fitLexicon } from './lexicon.ts';
import { lexiconFor } from '../../../../common/search/lexicon.ts';
import { firstPrincipalComponent, normalise, topEigenSparse, type SparseMatrix } from '../../../../common/search/linalg.ts';
import { glossName, glossVersion, type CorpusModelRecipe, type FittedState, type ModelResources } from '../../../../common/search/types.ts';
import { DEFAULT_ENGLISH_A, englishBlockFor } from '../../../../common/search/english-block.ts';
import { WORD_VECTOR_DIMS } from '../../../../common/search/word-vectors.ts';
import { weightedMean, wordVectorRows, type SifOptions } from '../../../../common/search/sif.ts';
import { restoreQueryModel } from '../../../../common/search/query-models.ts';
import { glossaryVersion } from './reader-thesaurus.ts';
import { bookWords, typosVersion } from '../../../../common/search/spelling.ts';

export type { SifOptions };

export const DEFAULT_SIF: SifOptions = { dims: 100, window: 5, a: 1e-3 };

/**
 * Word vectors learnt from the book's own word co-occurrences (positive PMI, factorised), and a
 * passage is the smooth-inverse-frequency weighted mean of its words' vectors, with the
 * corpus's common direction removed (Arora et al. 2017). Words used in the same company score
 * alike even when they never share a passage. The fit is here; what a fitted model computes
 * (common/search/sif.ts) is shared with a device.
 */
export function sifRecipe(options: SifOptions = DEFAULT_SIF, resources: ModelResources = {}): CorpusModelRecipe {
  const { dims, window, a, wordnet = false, expansion = 0, english = 0, englishA = DEFAULT_ENGLISH_A, glossary = 0, gloss = 0, typos = false } = options;
  const identity = {
    id: `sif-${dims}`,
    family: 'SIF',
    name: `ppmi-word-vectors-${dims}${english > 0 ? `+glove-${WORD_VECTOR_DIMS}` : ''}${wordnet ? '-wordnet' : ''}${wordnet && glossary > 0 ? '+thesaurus' : ''}${glossName(gloss)}`,
    version: `6:${dims}:${window}:${a}:${wordnet}:${expansion}:${english}:${englishA}${english > 0 ? `:${resources.words?.source}` : ''}${glossaryVersion(wordnet ? glossary : 0)}${glossVersion(gloss)}${typosVersion(typos)}`,
    ...(gloss > 0 ? { glossWeight: gloss } : {}),
  };
  return {
    ...identity,
    fit: (passages) => fitSif(passages, options, resources),
    restore: (state) => restoreQueryModel({ kind: 'sif', options }, state, resources, identity),
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
  const rows = wordVectorRows(wordVectors, k);
  const raw = ids.map((seq) => weightedMean(rows, weights, seq.map((id): [number, number] => [id, 1])));
  const common = firstPrincipalComponent(raw, k);
  const arrays: Record<string, Float32Array> = { wordVectors, weights, common };
  const english = englishBlockFor(options.english, options.englishA, resources, lexicon?.isWord);
  if (english) arrays.englishCommon = english.sharedDirection(passages);
  const spelling = options.typos ? { spelling: bookWords(passages).join(' ') } : {};
  return { meta: { vocabulary: vocabularyList, dims: k, lexicon: lexiconData, ...spelling }, arrays };
}
