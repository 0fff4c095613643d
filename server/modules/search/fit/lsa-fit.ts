import { buildVocabulary, countTerms } from '../../../../common/search/bag-of-terms.ts';
import { fitLexicon } from './lexicon.ts';
import { lexiconFor } from '../../../../common/search/lexicon.ts';
import { symmetricEigen } from '../../../../common/search/linalg.ts';
import { glossName, glossVersion, type CorpusModelRecipe, type FittedState, type ModelResources } from '../../../../common/search/types.ts';
import { DEFAULT_ENGLISH_A, englishBlockFor } from '../../../../common/search/english-block.ts';
import { WORD_VECTOR_DIMS } from '../../../../common/search/word-vectors.ts';
import { tfidfRow, type LsaOptions } from '../../../../common/search/lsa.ts';
import { restoreQueryModel } from '../../../../common/search/query-models.ts';
import { randomProjection } from '../../../../common/search/random-projection.ts';
import { glossaryVersion } from './reader-thesaurus.ts';
import { bookWords, typosVersion } from '../../../../common/search/spelling.ts';

export type { LsaOptions };

export const DEFAULT_LSA: LsaOptions = {
  dims: 48,
  lexical: 0,
  lexicalDims: 256,
  expansion: 0,
  wordnet: false,
  english: 0,
  englishA: DEFAULT_ENGLISH_A,
  sentenceWeight: 0,
  glossary: 0,
  gloss: 0,
  typos: false,
};

/**
 * Latent semantic analysis: sublinear tf-idf over word stems, reduced by SVD to `dims` latent
 * topics. Passages sharing vocabulary with a query's topic score well even without its words.
 * The fit is here; what a fitted model computes (common/search/lsa.ts) is shared with a device.
 */
export function lsaRecipe(options: Partial<LsaOptions> = {}, resources: ModelResources = {}): CorpusModelRecipe {
  const o = { ...DEFAULT_LSA, ...options };
  const lexical = o.lexical > 0 ? `+lex-${o.lexicalDims}` : '';
  const english = o.english > 0 ? `+glove-${WORD_VECTOR_DIMS}` : '';
  const identity = {
    id: `lsa-${o.dims}`,
    family: 'LSA',
    name: `tfidf-svd-${o.dims}${lexical}${english}${o.wordnet ? '-wordnet' : ''}${o.wordnet && o.glossary > 0 ? '+thesaurus' : ''}${glossName(o.gloss)}`,
    version: `5:${o.dims}:${o.lexical}:${o.lexicalDims}:${o.expansion}:${o.wordnet}:${o.english}:${o.englishA}${o.english > 0 ? `:${resources.words?.source}` : ''}${glossaryVersion(o.wordnet ? o.glossary : 0)}${glossVersion(o.gloss)}${typosVersion(o.typos)}`,
    ...(o.gloss > 0 ? { glossWeight: o.gloss } : {}),
  };
  return {
    ...identity,
    fit: (passages) => fitLsa(passages, o, resources),
    restore: (state) => restoreQueryModel({ kind: 'lsa', options: o }, state, resources, identity),
  };
}

function fitLsa(passages: string[], options: LsaOptions, resources: ModelResources): FittedState {
  const lexiconData = options.wordnet ? fitLexicon(passages, options.glossary > 0, options.typos) : undefined;
  const lexicon = lexiconData ? lexiconFor(lexiconData) : undefined;
  const vocabulary = buildVocabulary(passages, lexicon?.isWord);
  const counts = passages.map((p) => countTerms(p, vocabulary, lexicon));
  const n = passages.length;
  const df = new Float32Array(vocabulary.size);
  for (const c of counts) for (const id of c.keys()) df[id]! += 1;
  const idf = Float32Array.from(df, (d) => Math.log((1 + n) / (1 + d)) + 1);
  const rows = counts.map((c) => tfidfRow(c, idf));

  // The n×n Gram matrix is small (one row per passage), so its eigenvectors give the SVD cheaply.
  const gram = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let dot = 0;
      const [a, b] = rows[i]!.size < rows[j]!.size ? [rows[i]!, rows[j]!] : [rows[j]!, rows[i]!];
      for (const [id, w] of a) dot += w * (b.get(id) ?? 0);
      gram[i * n + j] = dot;
      gram[j * n + i] = dot;
    }
  }
  const { values, vectors } = symmetricEigen(gram, n);
  const k = Math.min(options.dims, n, values.findIndex((v) => v < 1e-9) === -1 ? n : values.findIndex((v) => v < 1e-9));
  // Term → topic projection V_k = Dᵀ U_k Σ_k⁻¹
  const projection = new Float32Array(vocabulary.size * k);
  for (let i = 0; i < n; i++) {
    for (const [id, w] of rows[i]!) {
      for (let c = 0; c < k; c++) projection[id * k + c]! += (w * vectors[i * n + c]!) / Math.sqrt(values[c]!);
    }
  }
  const english = englishBlockFor(options.english, options.englishA, resources, lexicon?.isWord);
  const arrays: Record<string, Float32Array> = { idf, projection };
  // Saved with the model: drawing its normal values again cost a restart 0.1 s.
  if (options.lexical > 0) arrays.lexicalProjection = randomProjection(vocabulary.size, options.lexicalDims);
  if (english) arrays.englishCommon = english.sharedDirection(passages);
  const spelling = options.typos ? { spelling: bookWords(passages).join(' ') } : {};
  return { meta: { vocabulary: vocabulary.list(), dims: k, lexicon: lexiconData, ...spelling }, arrays };
}
