import { buildVocabulary, countTerms, vocabularyFromList } from './bag-of-terms.ts';
import { normalise, symmetricEigen } from './linalg.ts';
import { corpusModel, type CorpusModelRecipe, type EmbeddingModel, type FittedState } from './types.ts';

/**
 * Latent semantic analysis: sublinear tf-idf over word stems, reduced by SVD to `dims` latent
 * topics. Passages sharing vocabulary with a query's topic score well even without its words.
 */
export function lsaRecipe(dims: number): CorpusModelRecipe {
  return {
    id: `lsa-${dims}`,
    family: 'LSA',
    name: `tfidf-svd-${dims}`,
    version: `1:${dims}`,
    fit: (passages) => fitLsa(passages, dims),
    restore: (state) => restoreLsa(state),
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

function fitLsa(passages: string[], dims: number): FittedState {
  const vocabulary = buildVocabulary(passages);
  const counts = passages.map((p) => countTerms(p, vocabulary));
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
  const k = Math.min(dims, n, values.findIndex((v) => v < 1e-9) === -1 ? n : values.findIndex((v) => v < 1e-9));
  // Term → topic projection V_k = Dᵀ U_k Σ_k⁻¹
  const projection = new Float32Array(vocabulary.size * k);
  for (let i = 0; i < n; i++) {
    for (const [id, w] of rows[i]!) {
      for (let c = 0; c < k; c++) projection[id * k + c]! += (w * vectors[i * n + c]!) / Math.sqrt(values[c]!);
    }
  }
  return { meta: { vocabulary: vocabulary.list(), dims: k, requestedDims: dims }, arrays: { idf, projection } };
}

function restoreLsa(state: FittedState): EmbeddingModel {
  const vocabulary = vocabularyFromList(state.meta.vocabulary);
  const k = Number(state.meta.dims);
  const idf = state.arrays.idf!;
  const projection = state.arrays.projection!;
  const embed = (text: string): Float32Array => {
    const out = new Float32Array(k);
    for (const [id, w] of tfidfRow(countTerms(text, vocabulary), idf)) {
      for (let c = 0; c < k; c++) out[c]! += w * projection[id * k + c]!;
    }
    return normalise(out);
  };
  return corpusModel(lsaRecipe(Number(state.meta.requestedDims)), k, embed);
}
