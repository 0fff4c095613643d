// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import type { EmbeddingModel } from '../../common/search/types.ts';
import { PassageIndex, stack } from '../../common/search/passage-index.ts';
import { codedDot, codeQuery, DotKernel } from '../../common/search/dot-kernel.ts';
import { codeRows, decodeRows } from '../../common/search/row-codes.ts';
import { markScore } from '../../common/search/mark.ts';
import { seededRandom } from '../../common/seeded-random.ts';
import { rankForResults } from '../../common/search/rank.ts';
import { matchStrength } from '../../common/search/match-strength.ts';

/** Values as a vector index keeps them: coded, then decoded (what a device decodes from the pack). */
const asKept = (values: Float32Array, rowLength: number) => decodeRows(codeRows(values, rowLength), rowLength);

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / n);
};

function model(dim: number, sentenceWeight: number): EmbeddingModel {
  return {
    id: 'toy',
    family: 'TOY',
    name: 'toy',
    version: '1',
    dim,
    sentenceWeight,
    embedQuery: async () => new Float32Array(dim),
    embedPassages: async (texts) => texts.map(() => new Float32Array(dim)),
  };
}

/** Two passages: A's own vector is only near the question, but one of its sentences is the question; B is close as a whole. */
function twoPassages(sentenceWeight: number): PassageIndex {
  const passages = [unit([0.6, 0.8, 0]), unit([0.8, 0.6, 0])];
  const sentences = [unit([1, 0, 0]), unit([0, 1, 0]), unit([0.8, 0.6, 0]), unit([0.8, 0.6, 0])];
  return new PassageIndex(model(3, sentenceWeight), stack(passages, 3), {
    first: Float32Array.from([0, 2, 4]),
    spans: Float32Array.from([0, 10, 11, 20, 0, 5, 6, 12]),
    vectors: stack(sentences, 3),
  });
}

describe('passage search', () => {
  const question = unit([1, 0, 0]);

  it('ranks by the passage alone for a model with no sentence weight', () => {
    const hits = twoPassages(0).search(question, 2);
    expect(hits.map((h) => h.passage)).toEqual([1, 0]);
    expect(hits[0]!.similarity).toBeCloseTo(0.8, 6);
  });

  it('lets the closest sentence lift its passage, by the model’s sentence weight, and reports that score', () => {
    const hits = twoPassages(0.6).search(question, 2);
    expect(hits.map((h) => h.passage)).toEqual([0, 1]);
    // A: 0.4 × 0.6 (itself) + 0.6 × 1 (its first sentence); B: 0.4 × 0.8 + 0.6 × 0.8 (the rows'
    // 8-bit codes keep each cosine within a few thousandths).
    expect(hits[0]!.similarity).toBeCloseTo(0.4 * 0.6 + 0.6, 2);
    expect(hits[1]!.similarity).toBeCloseTo(0.8, 2);
    // The sentence that lifted it is the one marked on the card.
    expect(twoPassages(0.6).bestSentence(0, question)).toEqual({ start: 0, end: 10 });
  });

  it('ranks a passage by a line of its gloss as by a sentence, and never marks that line', () => {
    const sentences = twoPassages(0.6).sentences!;
    // B's gloss has a line that is the question; A's gloss none near it.
    const glossLines = { first: Float32Array.from([0, 1, 2]), vectors: stack([unit([0, 0, 1]), unit([1, 0, 0])], 3) };
    const index = new PassageIndex(model(3, 0.6), twoPassages(0.6).vectors, { ...sentences, glossLines });
    const hits = index.search(question, 2);
    // A: 0.4 × 0.6 + 0.6 × 1 (its sentence) = 0.84; B: 0.4 × 0.8 + 0.6 × 1 (its gloss line) = 0.92.
    expect(hits.map((h) => h.passage)).toEqual([1, 0]);
    expect(hits[0]!.similarity).toBeCloseTo(0.4 * 0.8 + 0.6, 6);
    // The mark is still one of B's own sentences.
    expect(index.bestSentence(1, question)).toEqual({ start: 0, end: 5 });
  });

  it('names the passage whose gloss line is closest to the question, which need not be the first', () => {
    // Four passages: A has no line, B one line near the question, C two lines far from it, D
    // none (the last passage, after every line). A ranks first by its sentence; B's line is the
    // closest line.
    const passages = [unit([1, 0, 0]), unit([0, 1, 0]), unit([0, 0, 1]), unit([0, -1, 0])];
    const sentences = { first: Float32Array.from([0, 1, 2, 3, 4]), spans: Float32Array.from([0, 4, 0, 4, 0, 4, 0, 4]), vectors: stack(passages, 3) };
    const lines = (bLine: number[]) => ({ first: Float32Array.from([0, 0, 1, 3, 3]), vectors: stack([unit(bLine), unit([0, 0, 1]), unit([0, 1, 1])], 3) });
    const near = new PassageIndex(model(3, 0.6), stack(passages, 3), { ...sentences, glossLines: lines([0.6, 0.8, 0]) });
    const question = unit([0.9, 0.44, 0]);
    const { hits, closestLine } = near.ranked(question, 4);
    expect(hits[0]!.passage).toBe(0);
    expect(closestLine).toBe(1);
    // When C's second line is the closest, C is named: past A (no lines), before D (none either).
    const far = new PassageIndex(model(3, 0.6), stack(passages, 3), { ...sentences, glossLines: lines([0, 0.2, -1]) });
    expect(far.ranked(unit([0.3, 0.6, 0.6]), 4).closestLine).toBe(2);
    // A model without gloss lines names none, nor one whose scan scores passages alone.
    expect(new PassageIndex(model(3, 0.6), stack(passages, 3), sentences).ranked(question, 4).closestLine).toBeUndefined();
    expect(new PassageIndex(model(3, 0), stack(passages, 3), { ...sentences, glossLines: lines([0.6, 0.8, 0]) }).ranked(question, 4).closestLine).toBeUndefined();
  });

  it('takes its strength down when the closest gloss line is not its first passage’s, and only then', () => {
    const passages = [unit([1, 0, 0]), unit([0, 1, 0]), unit([0, 0, 1])];
    const sentences = { first: Float32Array.from([0, 1, 2, 3]), spans: Float32Array.from([0, 4, 0, 4, 0, 4]), vectors: stack(passages, 3) };
    const withLine = (line: number[], of: number) => {
      const first = Float32Array.from([0, 1, 2, 3].map((p) => (p > of ? 1 : 0)));
      return new PassageIndex(model(3, 0.6), stack(passages, 3), { ...sentences, glossLines: { first, vectors: stack([unit(line)], 3) } });
    };
    const question = unit([0.9, 0.44, 0]);
    // A is first either way; a line like the question is B's, then A's own.
    const elsewhere = rankForResults({ id: 'lsa-96' }, withLine([0.9, 0.44, 0], 1), question, 3);
    const own = rankForResults({ id: 'lsa-96' }, withLine([0.9, 0.44, 0], 0), question, 3);
    expect(elsewhere.hits[0]!.passage).toBe(0);
    expect(own.hits[0]!.passage).toBe(0);
    const similarities = own.hits.map((hit) => hit.similarity);
    expect(own.strength).toBe(matchStrength('lsa-96', similarities));
    expect(elsewhere.strength).toBe(matchStrength('lsa-96', elsewhere.hits.map((hit) => hit.similarity), undefined, true));
    expect(elsewhere.strength!).toBeLessThan(matchStrength('lsa-96', elsewhere.hits.map((hit) => hit.similarity))!);
  });

  it('marks, of two sentences nearly as close, the one its gloss line closest to the question describes', () => {
    // One passage, two sentences: the first a little closer to the question (0.80 against 0.78),
    // the second the one the gloss line nearest the question (0.70) says in other words.
    const passage = stack([unit([1, 0, 0])], 3);
    const sentences = { first: Float32Array.from([0, 2]), spans: Float32Array.from([0, 10, 11, 20]), vectors: stack([unit([0.8, 0.6, 0]), unit([0.78, 0, 0.626])], 3) };
    const without = new PassageIndex(model(3, 0.6), passage, sentences);
    expect(without.rank(question, 1)[0]!.highlight).toEqual({ start: 0, end: 10 });
    const glossLines = { first: Float32Array.from([0, 2]), vectors: stack([unit([0, 1, 0]), unit([0.7, 0, 0.714])], 3) };
    const withGloss = new PassageIndex(model(3, 0.6), passage, { ...sentences, glossLines });
    expect(withGloss.rank(question, 1)[0]!.highlight).toEqual({ start: 11, end: 20 });
    expect(withGloss.bestSentence(0, question)).toEqual({ start: 11, end: 20 });
    // What ranks the passage is unchanged: its closest unit, here the gloss line (0.7) below the sentence (0.8).
    expect(withGloss.search(question, 1)[0]!.similarity).toBeCloseTo(without.search(question, 1)[0]!.similarity, 6);
  });

  it('marks the sentence holding the question’s own words when the model weighs them', () => {
    // Two sentences equally close by cosine; the question's rare word is in the second.
    const sentences = { first: Float32Array.from([0, 2]), spans: Float32Array.from([0, 10, 11, 20]), vectors: stack([unit([1, 0, 0]), unit([1, 0, 0])], 3) };
    const texts = [{ text: 'give bread give alms' }];
    const ids: Record<string, number> = { alms: 1, give: 2, bread: 3 };
    const terms = (text: string) => new Map(text.split(' ').map((w) => [ids[w]!, w === 'alms' ? 3 : 1] as [number, number]));
    const withTerms: EmbeddingModel = { ...model(3, 0.6), markTerms: { question: terms, sentence: terms } };
    const index = new PassageIndex(withTerms, stack([unit([1, 0, 0])], 3), sentences);
    expect(index.rank(question, 1)[0]!.highlight).toEqual({ start: 0, end: 10 });
    const score = markScore(withTerms, 'alms', texts);
    expect(index.rank(question, 1, score)[0]!.highlight).toEqual({ start: 11, end: 20 });
    // A model without terms of its own marks by cosine alone.
    expect(markScore(model(3, 0.6), 'alms', texts)).toBeUndefined();
  });

  it('ranks a passage without sentences by itself, and gives no more results than passages', () => {
    const index = new PassageIndex(model(3, 0.6), stack([unit([1, 0, 0]), unit([0, 1, 0])], 3), {
      first: Float32Array.from([0, 0, 1]),
      spans: Float32Array.from([0, 4]),
      vectors: stack([unit([0, 1, 0])], 3),
    });
    const hits = index.search(unit([1, 0, 0]), 10);
    expect(hits).toEqual([
      { passage: 0, similarity: 1 },
      { passage: 1, similarity: 0 },
    ]);
    expect(index.bestSentence(0, unit([1, 0, 0]))).toBeUndefined();
  });

  it('ranks as every passage’s and sentence’s coded cosine, worked out one by one, does, on a book-sized index', () => {
    const random = seededRandom(7);
    const dim = 16;
    const passages = 173;
    const vec = () => unit(Array.from({ length: dim }, () => random() - 0.5));
    const perPassage = Array.from({ length: passages }, () => 2 + Math.floor(random() * 6));
    const first = new Float32Array(passages + 1);
    perPassage.forEach((n, p) => (first[p + 1] = first[p]! + n));
    const sentences = Array.from({ length: first[passages]! }, vec);
    // A passage's vector is near the mean of its sentences, as a text's is near its parts'.
    const own = perPassage.map((_, p) => {
      const sum = new Array<number>(dim).fill(0);
      for (let s = first[p]!; s < first[p + 1]!; s++) sentences[s]!.forEach((x, c) => (sum[c]! += x));
      return unit(sum);
    });
    const index = new PassageIndex(model(dim, 0.6), stack(own, dim), {
      first,
      spans: new Float32Array(sentences.length * 2),
      vectors: stack(sentences, dim),
    });
    // Each row as the kernel holds it: its 8-bit codes and scale.
    const coded = (v: Float32Array) => {
      const { scales, codes } = codeRows(v, dim);
      return { scale: scales[0]!, codes };
    };
    const [ownCoded, sentencesCoded] = [own.map(coded), sentences.map(coded)];
    let same = 0;
    let sameAsFloats = 0;
    for (let q = 0; q < 200; q++) {
      const query = vec();
      const codedQuery = codeQuery(query, dim);
      const firstThree = (dot: (row: 'own' | 'sentence', i: number) => number) =>
        own
          .map((_, p) => {
            let closest = -Infinity;
            for (let s = first[p]!; s < first[p + 1]!; s++) closest = Math.max(closest, dot('sentence', s));
            return [0.4 * dot('own', p) + 0.6 * closest, p] as const;
          })
          .sort((a, b) => b[0] - a[0])
          .slice(0, 3)
          .map(([, p]) => p)
          .join();
      const ranked = index.search(query, 3).map((h) => h.passage).join();
      if (ranked === firstThree((row, i) => codedDot((row === 'own' ? ownCoded : sentencesCoded)[i]!, codedQuery))) same++;
      if (ranked === firstThree((row, i) => (row === 'own' ? own : sentences)[i]!.reduce((t, x, c) => t + x * query[c]!, 0))) sameAsFloats++;
    }
    expect(same).toBe(200);
    // The codes change a ranking only where two passages are within a hair of each other.
    expect(sameAsFloats).toBeGreaterThanOrEqual(190);
  });
});

describe('the SIMD dot-product kernel', () => {
  it('gives the dot products of a query with any run of rows (four at a time, any count), for any dimension, exactly as their codes do, and within a hair of the floats', () => {
    const random = seededRandom(11);
    for (const dim of [1, 3, 4, 16, 250, 708]) {
      const first = Float32Array.from({ length: 7 * dim }, () => random() - 0.5);
      const second = Float32Array.from({ length: 6 * dim }, () => random() - 0.5);
      const rows = [...first, ...second];
      const query = Float32Array.from({ length: dim }, () => random() - 0.5);
      const kernel = new DotKernel([first, second], dim);
      kernel.setQuery(query);
      const { scales, codes } = codeRows(Float32Array.from(rows), dim);
      const coded = (r: number) => codedDot({ scale: scales[r]!, codes: codes.subarray(r * dim, (r + 1) * dim) }, codeQuery(query, dim));
      expect(Array.from(kernel.scores(0, 13))).toEqual(Array.from({ length: 13 }, (_, r) => coded(r)));
      expect(Array.from(kernel.scores(6, 3))).toEqual([coded(6), coded(7), coded(8)]);
      // A run to the last row, not a whole block: the rows the block reads past it are not the book's.
      expect(Array.from(kernel.scores(10, 3))).toEqual([coded(10), coded(11), coded(12)]);
      expect(Array.from(kernel.scores(13, 0))).toEqual([]);
      // Rows it does not hold are refused, not read from (or written past) its memory.
      for (const [from, n] of [[11, 3], [-1, 2], [0, 14], [1.5, 1]] as const) expect(() => kernel.scores(from, n)).toThrow(RangeError);
      // Each value within half a step of its row's largest ÷ 127, and the query's far finer.
      const float = (r: number) => query.reduce((sum, q, c) => sum + q * rows[r * dim + c]!, 0);
      const bound = (r: number) => (scales[r]! / 2) * query.reduce((sum, q) => sum + Math.abs(q), 0) * 1.01 + 1e-6;
      for (let r = 0; r < 13; r++) expect(Math.abs(kernel.scores(r, 1)[0]! - float(r))).toBeLessThanOrEqual(bound(r));
    }
  });

  it("scores each passage by its own row and its closest sentence's or line's, exactly as the formula in 64-bit floats, and by its own alone when it has none", () => {
    const random = seededRandom(12);
    const dim = 20;
    // Three passages (rows 0–2), five sentence rows (3–7), four line rows (8–11): passage 0 has
    // sentences 3–4 and line 8, passage 1 sentences 5–7 and no line, passage 2 no sentence and lines 9–11.
    const units = Int32Array.from([3, 5, 8, 8, 8, 9, 9, 12]);
    const rows = Float32Array.from({ length: 12 * dim }, () => random() - 0.5);
    const query = Float32Array.from({ length: dim }, () => random() - 0.5);
    const kernel = new DotKernel([rows], dim, units);
    kernel.setQuery(query);
    const all = Array.from(kernel.scores(0, 12));
    const weight = 0.6;
    const expected = [0, 1, 2].map((p) => {
      const closest = Math.max(...all.slice(units[p], units[p + 1]), ...all.slice(units[4 + p], units[5 + p]));
      return closest > -Infinity ? (1 - weight) * all[p]! + weight * closest : all[p]!;
    });
    expect(Array.from(kernel.best(weight))).toEqual(expected);
    // A passage with neither sentence nor line scores by its own row alone.
    const lone = new DotKernel([rows], dim, Int32Array.from([3, 3, 3, 3]));
    lone.setQuery(query);
    lone.scores(0, 12);
    expect(Array.from(lone.best(weight))).toEqual([all[0]]);
    expect(() => new DotKernel([rows], dim, Int32Array.from([3, 13, 13, 13]))).toThrow(/not a row/);
  });

  it('sums the largest codes of the widest rows without overflowing', () => {
    for (const dim of [708, 1024]) {
      const row = new Float32Array(dim).fill(-1);
      const kernel = new DotKernel([row], dim);
      kernel.setQuery(new Float32Array(dim).fill(-1));
      expect(kernel.scores(0, 1)[0]).toBeCloseTo(dim, 0);
    }
  });
});

describe("a vector index's 8-bit codes", () => {
  it('code again what they decode to, to the very same codes and scales, so a device holds what the server does', () => {
    const random = seededRandom(5);
    for (const dim of [3, 96, 452]) {
      const values = Float32Array.from({ length: 40 * dim }, () => (random() - 0.5) * 10 ** (random() * 4 - 2));
      const once = codeRows(values, dim);
      const again = codeRows(decodeRows(once, dim), dim);
      expect(Array.from(again.scales)).toEqual(Array.from(once.scales));
      expect(Array.from(again.codes)).toEqual(Array.from(once.codes));
      expect(Array.from(asKept(asKept(values, dim), dim))).toEqual(Array.from(asKept(values, dim)));
      // Each value within half a step of what it was.
      const kept = asKept(values, dim);
      for (let i = 0; i < values.length; i++) expect(Math.abs(kept[i]! - values[i]!)).toBeLessThanOrEqual(once.scales[Math.floor(i / dim)]! / 2 + 1e-12);
    }
    expect(Array.from(codeRows(new Float32Array(4), 2).codes)).toEqual([0, 0, 0, 0]);
  });

  it('are what an index keeps and scans, whatever vectors it was given', () => {
    const index = twoPassages(0.6);
    expect(Array.from(index.vectors)).toEqual(Array.from(asKept(stack([unit([0.6, 0.8, 0]), unit([0.8, 0.6, 0])], 3), 3)));
    expect(Array.from(new PassageIndex(model(3, 0.6), index.vectors, index.sentences).vectors)).toEqual(Array.from(index.vectors));
  });
});
