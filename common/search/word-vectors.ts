import { baseForms } from './lexicon.ts';

/** The package's dimensions. */
export const WORD_VECTOR_DIMS = 100;

export interface WordVectorTable {
  /** Lower-case alphabetic words, most frequent first. */
  words: string[];
  dims: number;
  /** Each word's frequency rank in GloVe's vocabulary (punctuation and numbers included), from 0. */
  ranks: Float32Array;
  /** words × dims, each row quantised to int8 … */
  vectors: Int8Array;
  /** … and scaled back by its own factor. */
  scales: Float32Array;
}

/** Word vectors by word: a word's own, or else its base form's ("kings" → king). */
export class WordVectors {
  readonly dims: number;
  private readonly rows = new Map<string, number>();

  /**
   * @param source names the vectors (package, version and word count): a model's version carries
   * it, so vectors cached with other word vectors are built again.
   */
  constructor(
    readonly table: WordVectorTable,
    readonly source = 'unnamed',
  ) {
    this.dims = table.dims;
    table.words.forEach((word, row) => this.rows.set(word, row));
  }

  /** The row of a word or of its first base form GloVe knows; undefined for a word it does not. */
  row(word: string): number | undefined {
    for (const form of baseForms(word)) {
      const row = this.rows.get(form);
      if (row !== undefined) return row;
    }
    return undefined;
  }

  /** The row of exactly this word (no base form), or undefined. */
  exactRow(word: string): number | undefined {
    return this.rows.get(word);
  }

  /** A word's share of English text, estimated from its frequency rank (Zipf's law: about 0.1 / rank). */
  frequency(row: number): number {
    return 0.1 / (this.table.ranks[row]! + 1);
  }

  /** out += weight × the word's vector. */
  addTo(out: Float32Array, row: number, weight: number): void {
    const { vectors, scales } = this.table;
    const w = weight * scales[row]!;
    const base = row * this.dims;
    for (let c = 0; c < this.dims; c++) out[c]! += w * vectors[base + c]!;
  }
}
