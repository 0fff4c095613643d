// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { matchStrength, saysLittle } from '../../common/search/match-strength.ts';

describe("a model's match strength", () => {
  it('measures how far the first passage stands above the next nine, in the model’s own scale', () => {
    // first 0.4, the next nine 0.2 on average: 0.2 above them, in units of LSA's 0.092.
    expect(matchStrength('lsa-96', [0.4, ...Array(9).fill(0.2)])).toBeCloseTo(0.2 / 0.092, 2);
    // A first passage no better than the rest, and not close, is a weak match.
    expect(matchStrength('sif-150', Array(10).fill(0.3))).toBeCloseTo(0.3 / 0.5, 3);
  });

  it('calls a close first passage an answer, however many passages are as close', () => {
    // The whole book answers "What is true happiness?": many passages alike, all close.
    expect(matchStrength('sif-150', Array(10).fill(0.55))).toBeGreaterThan(1);
  });

  it('counts missing ranks as nothing found, and gives nothing for a model with no scale', () => {
    expect(matchStrength('lsa-96', [0.092])).toBeCloseTo(1, 3);
    expect(matchStrength('lsa-96', [])).toBe(0);
    expect(matchStrength('bm25', [0.9, 0.1])).toBeUndefined();
  });
});

describe('the notice that the book says little', () => {
  it('appears when the arms shown have, on average, a strength below 1', () => {
    expect(saysLittle([0.4, 0.9])).toBe(true);
    expect(saysLittle([0.4, 1.8])).toBe(false);
  });

  it('weighs only the arms that have a strength, and stays silent when none has', () => {
    expect(saysLittle([0.5, undefined])).toBe(true);
    expect(saysLittle([1.5, undefined])).toBe(false);
    expect(saysLittle([undefined, undefined])).toBe(false);
  });
});
