import { countTerms, questionReader, vocabularyFromList } from './bag-of-terms.ts';
import { lexiconFor, type LexiconData } from './lexicon.ts';
import { normalise } from './linalg.ts';
import { corpusModel, type EmbeddingModel, type FittedState, type ModelIdentity, type ModelResources } from './types.ts';
import { englishBlockFor } from './english-block.ts';
import { projectionRows } from './random-projection.ts';
import { RowSum } from './row-sum.ts';
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

export function tfidfRow(counts: Map<number, number>, idf: Float32Array): Map<number, number> {
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

/**
 * An LSA model from its fitted state (server/modules/search/fit/lsa-fit.ts fits it): what the server restores
 * from its cache and a device from its offline pack, with the same code. The lexical block's
 * random projection is the saved one where the state has it, else drawn again from its seed a
 * row at a time, as a query's terms need them (the same values).
 */
export function restoreLsa(state: FittedState, options: LsaOptions, resources: ModelResources, identity: ModelIdentity): EmbeddingModel {
  const vocabulary = vocabularyFromList(state.meta.vocabulary);
  const lexicon = state.meta.lexicon ? lexiconFor(state.meta.lexicon as LexiconData) : undefined;
  const k = Number(state.meta.dims);
  const idf = state.arrays.idf!;
  const projection = state.arrays.projection!;
  const lexicalDims = options.lexical > 0 ? options.lexicalDims : 0;
  const lexicalRow = projectionRows(state.arrays.lexicalProjection, lexicalDims);
  const english = englishBlockFor(options.english, options.englishA, resources, lexicon?.isWord, state.arrays.englishCommon);
  const englishDims = english?.dims ?? 0;
  // A term's topic row and its lexical row side by side: a text's two parts are one weighted sum.
  const rows = new RowSum(idf.length, k + lexicalDims, (term, into) => {
    into.set(projection.subarray(term * k, (term + 1) * k), 0);
    if (lexicalDims > 0) into.set(lexicalRow(term), k);
  });
  // A question's weighted terms, worked out once for its vector and its mark.
  const weighedRows = new WeakMap<Map<number, number>, Map<number, number>>();
  const tfidfOf = (counts: Map<number, number>) => {
    let row = weighedRows.get(counts);
    if (!row) weighedRows.set(counts, (row = tfidfRow(counts, idf)));
    return row;
  };
  // Each part unit length, then scaled so that its cosine counts with its weight: latent 1,
  // lexical `lexical`², English `english`.
  const embed = (counts: Map<number, number>, text: string): Float32Array => {
    const out = new Float32Array(k + lexicalDims + englishDims);
    const row = tfidfOf(counts);
    const sums = rows.sum(row);
    out.set(normalise(sums.subarray(0, k)), 0);
    if (lexicalDims > 0) {
      const lexicalPart = normalise(sums.subarray(k, k + lexicalDims));
      for (let c = 0; c < lexicalDims; c++) out[k + c] = lexicalPart[c]! * options.lexical;
    }
    // Only where the book's own evidence finds something: a query of words the book never uses
    // stays a zero vector instead of matching the whole book through general English.
    if (english && row.size > 0) english.appendTo(out, k + lexicalDims, text, options.english);
    return normalise(out);
  };
  const model = corpusModel(identity, k + lexicalDims + englishDims, (text) => embed(countTerms(text, vocabulary, lexicon), text));
  // A query, its slips mended, also counts for its words' WordNet relatives in the book; a passage only for its own words.
  const read = questionReader(querySpelling(state, options.typos, resources, lexicon), vocabulary, lexicon, options.expansion, options.glossary);
  return {
    ...model,
    sentenceWeight: options.sentenceWeight,
    embedQuery: async (text) => {
      const { counts, mended } = read(text);
      return embed(counts, mended);
    },
    bookShare: (text) => read(text).share,
    markTerms: {
      question: (text) => tfidfOf(read(text).counts),
      sentence: (text) => tfidfRow(countTerms(text, vocabulary, lexicon), idf),
    },
  };
}
