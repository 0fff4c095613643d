// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { bootstrapSamples } from '../../server/modules/arena/stats/bradley-terry.ts';
import {
  clusterBootstrap,
  fitReaders,
  influentialCount,
  prepareReaders,
  readerInfluence,
  readersOf,
  type ReaderTallies,
} from '../../server/modules/arena/stats/reader-bootstrap.ts';

const MODELS = ['X', 'Y'];
/** A reader who played X against Y `n` times, X winning `wins`. */
const reader = (wins: number, n: number): ReaderTallies => [{ first: 'X', second: 'Y', wins, ties: 0, losses: n - wins }];
const quantiles = (xs: number[]): [number, number] => {
  const sorted = [...xs].sort((a, b) => a - b);
  return [sorted[Math.round(0.025 * (sorted.length - 1))]!, sorted[Math.round(0.975 * (sorted.length - 1))]!];
};

describe('resampling readers, not rounds', () => {
  it('fits the same strengths as the rounds pooled', () => {
    const data = prepareReaders(MODELS, [reader(18, 30), reader(12, 30)]);
    const s = fitReaders(data);
    // 30 wins of 60 each way: level.
    expect(s[0]! / s[1]!).toBeCloseTo(1, 6);
  });

  it('is seeded: the same readers and seed give the same samples, another seed others', () => {
    const data = prepareReaders(MODELS, Array.from({ length: 12 }, (_, i) => reader(i, 12)));
    expect(clusterBootstrap(data, 20, 5)).toEqual(clusterBootstrap(data, 20, 5));
    expect(clusterBootstrap(data, 20, 6)).not.toEqual(clusterBootstrap(data, 20, 5));
  });

  it('gives a wider interval than resampling rounds when readers disagree among themselves', () => {
    // 10 readers for X in all 30 rounds, 8 for Y in all of theirs: 300 to 240 rounds.
    const readers = [...Array.from({ length: 10 }, () => reader(30, 30)), ...Array.from({ length: 8 }, () => reader(0, 30))];
    const data = prepareReaders(MODELS, readers);
    const byReaders = clusterBootstrap(data, 200, 1).map((s) => Math.log(s[0]! / s[1]!));
    const comparisons = readers.flatMap((r) => Array.from({ length: 30 }, (_, i) => ({ first: 'X', second: 'Y', score: i < r[0]!.wins ? 1 : 0 })));
    const rounds = bootstrapSamples(MODELS, comparisons, 200, 1);
    const byRounds = rounds.get('X')!.map((x, i) => Math.log(x / rounds.get('Y')![i]!));
    const [rl, rh] = quantiles(byReaders);
    const [ol, oh] = quantiles(byRounds);
    // Resampling rounds calls X ahead; resampling readers does not: 18 people, split 10 to 8.
    expect(ol).toBeGreaterThan(0);
    expect(rl).toBeLessThan(0);
    expect(rh - rl).toBeGreaterThan(3 * (oh - ol));
  });
});

describe('the most influential readers', () => {
  it('are those whose rounds push the leader over the runner-up most', () => {
    const data = prepareReaders(['X', 'Y', 'Z'], [
      reader(6, 10),
      [{ first: 'Y', second: 'X', wins: 0, ties: 0, losses: 30 }],
      [{ first: 'X', second: 'Z', wins: 10, ties: 0, losses: 0 }],
      [{ first: 'Y', second: 'Z', wins: 0, ties: 5, losses: 5 }],
    ]);
    // X leads Y: the second reader (X won all 30 against Y) pushes most.
    expect([...readerInfluence(data, 0, 1)]).toEqual([2, 30, 10, 5]);
    expect(readersOf(data, 0, 1)).toBe(4);
    expect(readersOf(data, 1)).toBe(3);
  });

  it('are at least 3, or a tenth of the readers', () => {
    expect([1, 10, 30, 31, 100].map(influentialCount)).toEqual([3, 3, 3, 4, 10]);
  });
});
