import { buildVocabulary, countTerms, vocabularyFromList } from './bag-of-terms.ts';
import { fitLexicon, lexiconFor, type LexiconData } from './lexicon.ts';
import { seededRandom } from '../common/seeded-random.ts';
import { normalise, symmetricEigen } from './linalg.ts';
import { corpusModel, glossName, glossVersion, type CorpusModelRecipe, type EmbeddingModel, type FittedState, type ModelResources } from './types.ts';
import { DEFAULT_ENGLISH_A, englishBlockFor } from './english-block.ts';
import { WORD_VECTOR_DIMS } from './word-vectors.ts';
import { glossaryVersion } from './reader-thesaurus.ts';
import { bookWords, typosVersion } from './spelling.ts';
import { querySpelling } from './query-spelling.ts';

export interface LsaOptions {
  /** Latent topics kept from the SVD. */
  dims: number;
  /**
   * Weight of the lexical evidence beside the latent: the passage's own tf-idf vector is appended
   * to its topic vector (each unit length, this one scaled by `lexical`), so a rare word the
   * reader typed still counts after the reduction has blurred it. 0 leaves pure LSA.
   */
  lexical: number;
  /** Dimensions of the lexical block: the tf-idf vector, randomly projected to a dense one. */
  lexicalDims: number;
  /** How much a query word also counts for the book's WordNet relatives of it (0: only unknown words). */
  expansion: number;
  /** WordNet: archaic and inflected forms modernised, unknown words mapped to the book's. */
  wordnet: boolean;
  /**
   * Weight of general English beside the book's own evidence: the text's GloVe block
   * (english-block.ts) is appended, counting this much against the latent and lexical parts'
   * one each. 0 leaves it out (and needs no word vectors).
   */
  english: number;
  /** The English block's SIF smoothing. */
  englishA: number;
  /** How much a passage's best sentence counts in its rank beside the passage itself (0: not at all; no vector changes with it). */
  sentenceWeight: number;
  /** How much a query word also counts for the book's words the reader's thesaurus gives for it (0: no thesaurus; needs `wordnet`). */
  glossary: number;
  /** How much a passage's gloss counts beside its text (types.ts, `glossWeight`; 0: no gloss). */
  gloss: number;
  /** A misspelt query word read as the closest word the book or English has (spelling.ts). */
  typos: boolean;
}

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
 */
export function lsaRecipe(options: Partial<LsaOptions> = {}, resources: ModelResources = {}): CorpusModelRecipe {
  const o = { ...DEFAULT_LSA, ...options };
  const lexical = o.lexical > 0 ? `+lex-${o.lexicalDims}` : '';
  const english = o.english > 0 ? `+glove-${WORD_VECTOR_DIMS}` : '';
  return {
    id: `lsa-${o.dims}`,
    family: 'LSA',
    name: `tfidf-svd-${o.dims}${lexical}${english}${o.wordnet ? '-wordnet' : ''}${o.wordnet && o.glossary > 0 ? '+thesaurus' : ''}${glossName(o.gloss)}`,
    version: `4:${o.dims}:${o.lexical}:${o.lexicalDims}:${o.expansion}:${o.wordnet}:${o.english}:${o.englishA}${o.english > 0 ? `:${resources.words?.source}` : ''}${glossaryVersion(o.wordnet ? o.glossary : 0)}${glossVersion(o.gloss)}${typosVersion(o.typos)}`,
    ...(o.gloss > 0 ? { glossWeight: o.gloss } : {}),
    fit: (passages) => fitLsa(passages, o, resources),
    restore: (state) => restoreLsa(state, o, resources),
  };
}

function tfidfRow(counts: Map<number, number>, idf: Float32Array): Map<number, number> {
  const row = new Map<number, number>();
  let norm = 0;
  for (const [id, tf] of counts) {
    // Sublinear tf; a fractional count (a word shared among relatives) keeps its fraction.
    const w = (tf >= 1 ? 1 + Math.log(tf) : tf) * idf[id]!;
    row.set(id, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [id, w] of row) row.set(id, w / norm);
  return row;
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

function restoreLsa(state: FittedState, options: LsaOptions, resources: ModelResources): EmbeddingModel {
  const vocabulary = vocabularyFromList(state.meta.vocabulary);
  const lexicon = state.meta.lexicon ? lexiconFor(state.meta.lexicon as LexiconData) : undefined;
  const k = Number(state.meta.dims);
  const idf = state.arrays.idf!;
  const projection = state.arrays.projection!;
  const lexicalDims = options.lexical > 0 ? options.lexicalDims : 0;
  // Saved with the model; drawn again (the same values, seeded) were it ever missing.
  const lexicalProjection = state.arrays.lexicalProjection ?? randomProjection(vocabulary.size, lexicalDims);
  const english = englishBlockFor(options.english, options.englishA, resources, lexicon?.isWord, state.arrays.englishCommon);
  const englishDims = english?.dims ?? 0;
  // Each part unit length, then scaled so that its cosine counts with its weight: latent 1,
  // lexical `lexical`², English `english`.
  const embed = (counts: Map<number, number>, text: string): Float32Array => {
    const out = new Float32Array(k + lexicalDims + englishDims);
    const row = tfidfRow(counts, idf);
    for (const [id, w] of row) {
      for (let c = 0; c < k; c++) out[c]! += w * projection[id * k + c]!;
      for (let c = 0; c < lexicalDims; c++) out[k + c]! += w * lexicalProjection[id * lexicalDims + c]!;
    }
    out.set(normalise(out.subarray(0, k)), 0);
    if (lexicalDims > 0) {
      const lexicalPart = normalise(out.subarray(k, k + lexicalDims));
      for (let c = 0; c < lexicalDims; c++) out[k + c] = lexicalPart[c]! * options.lexical;
    }
    // Only where the book's own evidence finds something: a query of words the book never uses
    // stays a zero vector instead of matching the whole book through general English.
    if (english && row.size > 0) english.appendTo(out, k + lexicalDims, text, options.english);
    return normalise(out);
  };
  const model = corpusModel(lsaRecipe(options, resources), k + lexicalDims + englishDims, (text) =>
    embed(countTerms(text, vocabulary, lexicon), text),
  );
  // A query, its slips mended, also counts for its words' WordNet relatives in the book; a passage only for its own words.
  const mend = querySpelling(state, options.typos, resources, lexicon);
  return {
    ...model,
    sentenceWeight: options.sentenceWeight,
    embedQuery: async (text) => {
      const query = mend(text);
      return embed(countTerms(query, vocabulary, lexicon, options.expansion, options.glossary), query);
    },
  };
}

/**
 * A seeded Gaussian random projection (Johnson–Lindenstrauss): the vocabulary-wide tf-idf vector
 * becomes a dense one of `dims` whose dot products keep the original cosines closely, so the
 * lexical evidence is scanned like the rest of the embedding.
 */
function randomProjection(terms: number, dims: number): Float32Array {
  const random = seededRandom(20261122);
  const out = new Float32Array(terms * dims);
  for (let i = 0; i < out.length; i += 2) {
    // Box–Muller: two standard normal values from two uniform ones.
    const r = Math.sqrt(-2 * Math.log(1 - random()));
    const theta = 2 * Math.PI * random();
    out[i] = r * Math.cos(theta);
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(theta);
  }
  return out;
}
