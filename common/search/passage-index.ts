import type { EmbeddingModel } from './types.ts';
import { DotKernel } from './dot-kernel.ts';
import { MARK_GLOSS_WEIGHT } from './mark.ts';
import { codeRows, decodeRows, type RowCodes } from './row-codes.ts';

export interface ScoredPassage {
  /** Position of the passage in the book (its passage_index). */
  passage: number;
  similarity: number;
}

/** A ranked passage with its sentence closest to the query, as character offsets into its text (none for a model without sentences). */
export interface RankedPassage extends ScoredPassage {
  highlight?: { start: number; end: number };
}

/**
 * Every passage's sentences embedded by the same model: `first[p]` to `first[p + 1]` are passage
 * p's sentences, each with its [start, end) in `spans` and its vector in `vectors`.
 */
export interface SentenceVectors {
  first: Float32Array;
  spans: Float32Array;
  vectors: Float32Array;
  /**
   * The lines of the passages' glosses (a model with a gloss weight), embedded alike:
   * `first[p]` to `first[p + 1]` are passage p's. They rank a passage as its sentences do, and are
   * never a highlight (they are not the book's words).
   */
  glossLines?: { first: Float32Array; vectors: Float32Array };
}

/**
 * A sentence's score for the mark (mark.ts), from its score so far: by the passage's place in the
 * book and the sentence's offsets in its text.
 */
export type SentenceScore = (passage: number, start: number, end: number, score: number) => number;

/**
 * One model's passage vectors, row after row in one Float32Array, searched by a scan of every row
 * in 8-bit codes (dot-kernel.ts). The vectors it keeps (`vectors`, `sentences`) are those the codes
 * stand for (row-codes.ts), whatever it was given: what the offline pack carries, and what a device
 * builds the same index from.
 */
export class PassageIndex {
  readonly count: number;
  readonly vectors: Float32Array;
  readonly sentences?: SentenceVectors;
  /** The passages' vectors, then their sentences', then their gloss lines', for the scan. */
  private readonly kernel: DotKernel;
  /** How many rows the kernel holds. */
  private readonly rows: number;
  /** Passage p's sentences are rows `units[p]` to `units[p + 1]`; its gloss lines `units[count + 1 + p]` to `units[count + 2 + p]`. */
  private readonly units: Int32Array;

  constructor(
    readonly model: EmbeddingModel,
    given: Float32Array,
    givenSentences?: SentenceVectors,
  ) {
    if (given.length % model.dim !== 0) throw new Error(`${model.id}: vectors do not fit dim ${model.dim}`);
    // Each part coded once: the kernel scans the codes, and the index keeps what they stand for.
    const { dim } = model;
    const parts = [given, ...(givenSentences ? [givenSentences.vectors, ...(givenSentences.glossLines ? [givenSentences.glossLines.vectors] : [])] : [])];
    const coded: RowCodes[] = parts.map((part) => codeRows(part, dim));
    const [vectors, sentenceVectors, lineVectors] = coded.map((part) => decodeRows(part, dim));
    this.vectors = vectors!;
    if (givenSentences) {
      const { glossLines, ...rest } = givenSentences;
      this.sentences = { ...rest, vectors: sentenceVectors!, ...(glossLines ? { glossLines: { ...glossLines, vectors: lineVectors! } } : {}) };
    }
    const sentences = this.sentences;
    this.count = this.vectors.length / dim;
    this.rows = coded.reduce((sum, part) => sum + part.scales.length, 0);
    // Where each passage's sentences, then its gloss lines, start among all the rows.
    const sentenceCount = sentences?.first[this.count] ?? 0;
    const sentenceFirst = sentences?.first ?? new Float32Array(this.count + 1);
    const lineFirst = sentences?.glossLines?.first ?? new Float32Array(this.count + 1);
    this.units = new Int32Array(2 * (this.count + 1));
    for (let p = 0; p <= this.count; p++) {
      this.units[p] = this.count + sentenceFirst[p]!;
      this.units[this.count + 1 + p] = this.count + sentenceCount + lineFirst[p]!;
    }
    this.kernel = new DotKernel(coded, dim, this.units);
  }

  /** The passage's sentence closest to the query, as character offsets into its text (the one `search` ranked it by). */
  bestSentence(passage: number, query: Float32Array, score?: SentenceScore): { start: number; end: number } | undefined {
    if (!this.sentences) return undefined;
    this.kernel.setQuery(query);
    return this.closestSentence(passage, null, score);
  }

  /**
   * The k most similar passages, best first (vectors are unit length, so the dot product is the
   * cosine). A model with a `sentenceWeight` ranks a passage by its own cosine and its closest
   * sentence's, weighted, so that a question about one sentence of a long passage still finds it;
   * a line of its gloss counts as one of its sentences. Every passage, sentence and gloss line is
   * scored, in one pass of the SIMD kernel.
   */
  search(query: Float32Array, k: number): ScoredPassage[] {
    return this.scan(query, k).hits;
  }

  /**
   * `search`'s passages, each with its sentence closest to the query (as `bestSentence` finds
   * it), taken from the same pass of the kernel where it scored the sentences: a search's one
   * computation, from query vector to highlighted passages.
   */
  rank(query: Float32Array, k: number, score?: SentenceScore, marked = k): RankedPassage[] {
    const { hits, all } = this.scan(query, k);
    return this.withMarks(hits, all, score, marked);
  }

  /**
   * `rank`'s passages, and the passage that holds the line closest to the query among all the
   * passages' gloss lines (a gloss's line, or a question asked of the book: what readers said of
   * each passage), from the same pass of the kernel; none for a model without gloss lines or
   * without a sentence weight (its scan scores no line). Where that passage is not the first, the
   * first is less sure (match-strength.ts).
   */
  ranked(query: Float32Array, k: number, score?: SentenceScore, marked = k): { hits: RankedPassage[]; closestLine?: number } {
    const { hits, all } = this.scan(query, k);
    const closestLine = all && this.sentences ? this.passageOfClosestLine(all) : undefined;
    const marks = this.withMarks(hits, all, score, marked);
    return closestLine === undefined ? { hits: marks } : { hits: marks, closestLine };
  }

  /** The first `marked` of the hits, each with its sentence to mark (a model without sentences marks none). */
  private withMarks(hits: ScoredPassage[], all: Float32Array | null, score: SentenceScore | undefined, marked: number): RankedPassage[] {
    if (!this.sentences) return hits;
    return hits.map((hit, i) => {
      if (i >= marked) return hit;
      const highlight = this.closestSentence(hit.passage, all, score);
      // Spelled out: a spread copies by a slow generic path, and a search makes ten of these.
      return highlight ? { passage: hit.passage, similarity: hit.similarity, highlight } : hit;
    });
  }

  /** The passage holding the gloss line with the highest score in `all` (the first of equals), or none without lines. */
  private passageOfClosestLine(all: Float32Array): number | undefined {
    const { units, count } = this;
    const from = units[count + 1]!;
    const to = units[2 * count + 1]!;
    if (to <= from) return undefined;
    const best = firstBest(all, from, to);
    // The last passage whose lines start at or before the row.
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (units[count + 1 + mid]! <= best) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The k best passages, and the scores of every row when the scan computed them (a model with a `sentenceWeight`), for the query the kernel now holds. */
  private scan(query: Float32Array, k: number): { hits: ScoredPassage[]; all: Float32Array | null } {
    const weight = this.sentences ? (this.model.sentenceWeight ?? 0) : 0;
    this.kernel.setQuery(query);
    if (weight <= 0) return { hits: topK(Float64Array.from(this.kernel.scores(0, this.count)), k), all: null };
    // Passages, sentences and gloss lines in one pass, each unit's rows at its offset in `all`;
    // then each passage's score from its rows' (DotKernel.best).
    const all = this.kernel.scores(0, this.rows);
    return { hits: topK(this.kernel.best(weight), k), all };
  }

  /**
   * The passage's sentence to mark for the query the kernel holds (the first of equals): the one
   * closest to it, with the passage's gloss line closest to it counting beside (mark.ts), and
   * `score` adding what it adds. Scores are read from `all`, every row's, or computed now.
   */
  private closestSentence(passage: number, all: Float32Array | null, score?: SentenceScore): { start: number; end: number } | undefined {
    const { first, spans } = this.sentences!;
    const at = first[passage]!;
    const n = first[passage + 1]! - at;
    if (n === 0) return undefined;
    // The line first: the kernel's scores are read before it scores again.
    const line = this.closestLine(passage, all);
    const from = this.count + at;
    const cosines = all ? all.subarray(from, from + n) : this.kernel.scores(from, n);
    const withLine = line === undefined ? undefined : this.lineSentenceDots(passage).subarray(line * n, (line + 1) * n);
    let best = 0;
    let bestScore = -Infinity;
    for (let s = 0; s < n; s++) {
      let here = cosines[s]!;
      if (withLine) here += MARK_GLOSS_WEIGHT * withLine[s]!;
      if (score) here = score(passage, spans[(at + s) * 2]!, spans[(at + s) * 2 + 1]!, here);
      if (here > bestScore) {
        best = s;
        bestScore = here;
      }
    }
    return { start: spans[(at + best) * 2]!, end: spans[(at + best) * 2 + 1]! };
  }

  /** Which of the passage's gloss lines is closest to the query the kernel holds (none without lines). */
  private closestLine(passage: number, all: Float32Array | null): number | undefined {
    if (!this.sentences!.glossLines || MARK_GLOSS_WEIGHT === 0) return undefined;
    const { units, count } = this;
    const from = units[count + 1 + passage]!;
    const n = units[count + 2 + passage]! - from;
    if (n === 0) return undefined;
    const scores = all ? all.subarray(from, from + n) : this.kernel.scores(from, n);
    return firstBest(scores, 0, n);
  }

  /** Each of the passage's gloss lines' cosine with each of its sentences, line after line (worked out once, then kept). */
  private lineSentenceDots(passage: number): Float32Array {
    let dots = this.lineDots.get(passage);
    if (dots) return dots;
    const { first, vectors } = this.sentences!;
    const lines = this.sentences!.glossLines!;
    const dim = this.model.dim;
    const sentences = first[passage + 1]! - first[passage]!;
    const lineFrom = lines.first[passage]!;
    const lineCount = lines.first[passage + 1]! - lineFrom;
    dots = new Float32Array(lineCount * sentences);
    for (let l = 0; l < lineCount; l++) {
      const lo = (lineFrom + l) * dim;
      for (let s = 0; s < sentences; s++) {
        const so = (first[passage]! + s) * dim;
        let dot = 0;
        for (let c = 0; c < dim; c++) dot += lines.vectors[lo + c]! * vectors[so + c]!;
        dots[l * sentences + s] = dot;
      }
    }
    this.lineDots.set(passage, dots);
    return dots;
  }

  private readonly lineDots = new Map<number, Float32Array>();
}

/** Where in `scores`, from `from` to `to` (not empty), the highest is: the first of equals. */
function firstBest(scores: Float32Array, from: number, to: number): number {
  let best = from;
  for (let i = from + 1; i < to; i++) if (scores[i]! > scores[best]!) best = i;
  return best;
}

/** The k best of `scores`, best first. */
function topK(scores: Float64Array, k: number): ScoredPassage[] {
  const best: ScoredPassage[] = [];
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (best.length === k && score <= best[k - 1]!.similarity) continue;
    let at = best.length < k ? best.length : k - 1;
    if (best.length < k) best.push({ passage: 0, similarity: 0 });
    while (at > 0 && best[at - 1]!.similarity < score) {
      best[at] = best[at - 1]!;
      at -= 1;
    }
    best[at] = { passage: i, similarity: score };
  }
  return best;
}

/** Stacks unit vectors into one array. */
export function stack(vectors: Float32Array[], dim: number): Float32Array {
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => out.set(v, i * dim));
  return out;
}
