// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { decidedRoundsPerPair, leastDecidedPair, leastDecidedPairs, pairCounts, pairKey, pickOne } from '../../server/modules/arena/draw.ts';
import { seededRandom } from '../../common/seeded-random.ts';

const ARMS = ['BGE b', 'UAE u', 'LSA l', 'SIF s', 'BM25 k'];
const sorted = (pair: readonly [string, string]) => [...pair].sort().join(' vs ');

describe('the draw of a search’s two arms', () => {
  it('lists every pair of the pool once, with the rounds it has had, whichever way round they were shown', () => {
    const decided = decidedRoundsPerPair([
      { a: 'LSA l', b: 'SIF s', count: 3 },
      { a: 'SIF s', b: 'LSA l', count: 2 },
      { a: 'BGE b', b: 'BM25 k', count: 1 },
    ]);
    const counts = pairCounts(ARMS, decided);
    expect(counts).toHaveLength(10);
    expect(new Set(counts.map((c) => sorted(c.pair))).size).toBe(10);
    expect(counts.find((c) => sorted(c.pair) === 'LSA l vs SIF s')!.decided).toBe(5);
    expect(counts.find((c) => sorted(c.pair) === 'BGE b vs BM25 k')!.decided).toBe(1);
    expect(counts.filter((c) => c.decided === 0)).toHaveLength(8);
    expect(pairKey('a', 'b')).toBe(pairKey('b', 'a'));
  });

  it('draws the pair with the fewest decided rounds', () => {
    const decided = new Map(pairCounts(ARMS, new Map()).map((c, i) => [pairKey(...c.pair), 10 + i]));
    decided.set(pairKey('UAE u', 'BM25 k'), 4);
    const random = seededRandom(1);
    for (let i = 0; i < 50; i++) expect(sorted(leastDecidedPair(pairCounts(ARMS, decided), random))).toBe('BM25 k vs UAE u');
  });

  it('breaks ties at random: every tied pair comes up, about as often as the others, and no other', () => {
    const decided = new Map([[pairKey('LSA l', 'SIF s'), 7], [pairKey('BGE b', 'UAE u'), 7]]);
    const counts = pairCounts(['BGE b', 'UAE u', 'LSA l', 'SIF s'], decided);
    const random = seededRandom(42);
    const drawn = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const key = sorted(leastDecidedPair(counts, random));
      drawn.set(key, (drawn.get(key) ?? 0) + 1);
    }
    // Four pairs with no round; the two with 7 never.
    expect([...drawn.keys()].sort()).toEqual(['BGE b vs LSA l', 'BGE b vs SIF s', 'LSA l vs UAE u', 'SIF s vs UAE u']);
    for (const n of drawn.values()) expect(n).toBeGreaterThan(900);
  });

  it('gives the pair’s arms in the pool’s order (the client draws which is A)', () => {
    const random = seededRandom(3);
    for (let i = 0; i < 20; i++) expect(leastDecidedPair(pairCounts(['LSA l', 'SIF s'], new Map()), random)).toEqual(['LSA l', 'SIF s']);
  });

  it('follows its random source: the same source, the same draws', () => {
    const counts = pairCounts(ARMS, new Map());
    const draws = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => leastDecidedPair(counts, random).join(' / '));
    };
    expect(draws(9)).toEqual(draws(9));
    expect(draws(9)).not.toEqual(draws(10));
  });

  it('names every pair tied for the fewest decided rounds, and picks among them', () => {
    const decided = new Map([[pairKey('LSA l', 'SIF s'), 3]]);
    const tied = leastDecidedPairs(pairCounts(['LSA l', 'SIF s', 'BM25 k'], decided));
    expect(tied.map((pair) => pair.join(' / '))).toEqual(['LSA l / BM25 k', 'SIF s / BM25 k']);
    expect(pickOne(tied, () => 0)).toBe(tied[0]);
    expect(pickOne(tied, () => 0.999)).toBe(tied[1]);
    expect(() => pickOne([], Math.random)).toThrow(RangeError);
  });

  it('has nothing to draw from a pool of fewer than two arms', () => {
    expect(pairCounts(['LSA l'], new Map())).toEqual([]);
    expect(() => leastDecidedPair([], Math.random)).toThrow(RangeError);
  });
});
