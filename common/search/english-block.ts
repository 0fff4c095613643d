import { firstPrincipalComponent, normalise, removeDirection } from './linalg.ts';
import { contentWords } from './text.ts';
import type { ModelResources } from './types.ts';
import type { WordVectors } from './word-vectors.ts';

/**
 * What a text says in general English: the smooth-inverse-frequency weighted mean of its content
 * words' GloVe vectors (Arora et al. 2017, each word weighing a / (a + its share of English
 * text)), less the direction the book's passages all share. Appended to a corpus model's own
 * vector, it lets a reader's words meet the book's where the book alone never shows them akin:
 * "ruler" and "king", "newborn" and "child", "money" and "wealth".
 */
export interface EnglishBlockOptions {
  /** SIF's smoothing: the smaller, the more a rare word outweighs a common one. */
  a: number;
}

/** The last text's raw block, shared by every block of the same words, smoothing and word test (both models of a lineup read a question in turn). */
let lastRaw: { words: WordVectors; a: number; isWord: (word: string) => boolean; text: string; raw: Float32Array } | undefined;

export class EnglishBlock {
  readonly dims: number;

  constructor(
    private readonly words: WordVectors,
    private readonly options: EnglishBlockOptions,
    private readonly isWord: (word: string) => boolean,
    /** The passages' shared direction, taken out of every vector (zero before the fit). */
    private readonly common: Float32Array = new Float32Array(words.dims),
  ) {
    this.dims = words.dims;
  }

  /** The weighted mean, before the shared direction is taken out; zero for a text of unknown words. A new array, the caller's to change. */
  private raw(text: string): Float32Array {
    const last = lastRaw;
    if (last?.text === text && last.words === this.words && last.a === this.options.a && last.isWord === this.isWord) return last.raw.slice();
    const out = this.mean(text);
    lastRaw = { words: this.words, a: this.options.a, isWord: this.isWord, text, raw: out.slice() };
    return out;
  }

  private mean(text: string): Float32Array {
    const out = new Float32Array(this.dims);
    let count = 0;
    for (const { word } of contentWords(text, this.isWord)) {
      const row = this.words.row(word);
      if (row === undefined) continue;
      this.words.addTo(out, row, this.options.a / (this.options.a + this.words.frequency(row)));
      count++;
    }
    if (count > 0) for (let c = 0; c < this.dims; c++) out[c]! /= count;
    return out;
  }

  /** The text's unit vector (zero when GloVe knows none of its words). */
  embed(text: string): Float32Array {
    return normalise(removeDirection(this.raw(text), this.common));
  }

  /** Writes the text's block into `out` from `at`, scaled so that its cosine counts `weight` beside unit parts. */
  appendTo(out: Float32Array, at: number, text: string, weight: number): void {
    const scale = Math.sqrt(weight);
    const part = this.embed(text);
    for (let c = 0; c < this.dims; c++) out[at + c] = part[c]! * scale;
  }

  /** The direction shared by these passages (their first principal component), for `common`. */
  sharedDirection(passages: string[]): Float32Array {
    return firstPrincipalComponent(passages.map((p) => this.raw(p)), this.dims, 60);
  }
}

/** The English block of a model that gives it `weight` > 0, or none (and then no word vectors are needed). */
export function englishBlockFor(
  weight: number | undefined,
  a: number | undefined,
  resources: ModelResources,
  isWord: (word: string) => boolean = () => false,
  common?: Float32Array,
): EnglishBlock | undefined {
  if (!weight || weight <= 0) return undefined;
  if (!resources.words) throw new Error('this model appends general English word vectors, and none were given');
  return new EnglishBlock(resources.words, { a: a ?? DEFAULT_ENGLISH_A }, isWord, common);
}

/** The English block's SIF smoothing where a model names none. */
export const DEFAULT_ENGLISH_A = 1e-3;
