import type { EmbeddingModel } from '../models/types.ts';

export interface ScoredPassage {
  /** Position of the passage in the book (its passage_index). */
  passage: number;
  similarity: number;
}

/** One model's passage vectors, row after row in one Float32Array, searched by exact cosine scan. */
export class PassageIndex {
  readonly count: number;

  constructor(
    readonly model: EmbeddingModel,
    readonly vectors: Float32Array,
  ) {
    if (vectors.length % model.dim !== 0) throw new Error(`${model.id}: vectors do not fit dim ${model.dim}`);
    this.count = vectors.length / model.dim;
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
