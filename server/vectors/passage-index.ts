import type { EmbeddingModel } from '../models/types.ts';

export interface ScoredPassage {
  /** Position of the passage in the book (its passage_index). */
  passage: number;
  similarity: number;
}

/**
 * Every passage's sentences embedded by the same model: `first[p]` to `first[p + 1]` are passage
 * p's sentences, each with its [start, end) in `spans` and its vector in `vectors`.
 */
export interface SentenceVectors {
  first: Float32Array;
  spans: Float32Array;
  vectors: Float32Array;
}

/** One model's passage vectors, row after row in one Float32Array, searched by exact cosine scan. */
export class PassageIndex {
  readonly count: number;

  constructor(
    readonly model: EmbeddingModel,
    readonly vectors: Float32Array,
    readonly sentences?: SentenceVectors,
  ) {
    if (vectors.length % model.dim !== 0) throw new Error(`${model.id}: vectors do not fit dim ${model.dim}`);
    this.count = vectors.length / model.dim;
  }

  /** The passage's sentence closest to the query, as character offsets into its text. */
  bestSentence(passage: number, query: Float32Array): { start: number; end: number } | undefined {
    if (!this.sentences) return undefined;
    const { first, spans, vectors } = this.sentences;
    const dim = this.model.dim;
    let best = -1;
    let bestScore = -Infinity;
    for (let s = first[passage]!; s < first[passage + 1]!; s++) {
      let dot = 0;
      for (let c = 0; c < dim; c++) dot += vectors[s * dim + c]! * query[c]!;
      if (dot > bestScore) {
        bestScore = dot;
        best = s;
      }
    }
    return best === -1 ? undefined : { start: spans[best * 2]!, end: spans[best * 2 + 1]! };
  }

  /** The k most similar passages, best first (vectors are unit length, so the dot product is the cosine). */
  search(query: Float32Array, k: number): ScoredPassage[] {
    const dim = this.model.dim;
    const best: ScoredPassage[] = [];
    for (let p = 0; p < this.count; p++) {
      let dot = 0;
      const base = p * dim;
      for (let c = 0; c < dim; c++) dot += this.vectors[base + c]! * query[c]!;
      if (best.length < k || dot > best[best.length - 1]!.similarity) {
        let at = best.length < k ? best.length : k - 1;
        if (best.length < k) best.push({ passage: p, similarity: dot });
        while (at > 0 && best[at - 1]!.similarity < dot) {
          best[at] = best[at - 1]!;
          at -= 1;
        }
        best[at] = { passage: p, similarity: dot };
      }
    }
    return best;
  }
}

/** Stacks unit vectors into one array. */
export function stack(vectors: Float32Array[], dim: number): Float32Array {
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => out.set(v, i * dim));
  return out;
}
