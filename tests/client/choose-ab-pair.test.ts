import { describe, expect, it } from 'vitest';
import { chooseAbPair, pairAgreement, sharesOnePassage } from '../../src/features/search/choose-ab-pair.ts';

const r = (model_type: string, text: string) => ({ model_type, text, similarity: 0.5 });
const keep = () => 0.9; // random() ≥ 0.5 keeps the order
const swap = () => 0.1;

describe('chooseAbPair', () => {
  it('takes the first BGE and the first UAE result, wherever they stand', () => {
    const results = [r('BGE small', 'b1'), r('BGE small', 'b2'), r('UAE large', 'u1'), r('UAE large', 'u2')];
    expect(chooseAbPair(results, keep).map((x) => [x.resultLabel, x.text])).toEqual([
      ['A', 'b1'],
      ['B', 'u1'],
    ]);
  });

  it('shuffles their order at random, so A is not always the same model', () => {
    const results = [r('BGE small', 'b1'), r('UAE large', 'u1')];
    expect(chooseAbPair(results, swap).map((x) => [x.resultLabel, x.text])).toEqual([
      ['A', 'u1'],
      ['B', 'b1'],
    ]);
    const firsts = new Set(Array.from({ length: 50 }, () => chooseAbPair(results)[0]!.text));
    expect(firsts).toEqual(new Set(['b1', 'u1']));
  });

  it('falls back to the first results of two models when BGE or UAE is missing', () => {
    const results = [r('LSA tfidf', 'l1'), r('SIF ppmi', 's1'), r('LSA tfidf', 'l2')];
    expect(chooseAbPair(results, keep).map((x) => x.text)).toEqual(['l1', 's1']);
    expect(chooseAbPair([r('BGE small', 'b1'), r('LSA', 'l1')], keep).map((x) => x.text)).toEqual(['b1', 'l1']);
    expect(chooseAbPair([r('BM25 k', 'k1'), r('BM25 k', 'k2'), r('LSA', 'l1')], keep).map((x) => x.text)).toEqual(['k1', 'l1']);
  });

  it('shows one model’s first result alone when only that model answered: its two passages are no comparison', () => {
    const lone = chooseAbPair([r('LSA tfidf', 'l1'), r('LSA tfidf', 'l2'), r('LSA tfidf', 'l3')], swap);
    expect(lone.map((x) => [x.resultLabel, x.text])).toEqual([['A', 'l1']]);
    // A server that names no model: its first two, as the spec says.
    expect(chooseAbPair([{ text: 'x1' }, { text: 'x2' }], keep).map((x) => x.text)).toEqual(['x1', 'x2']);
  });

  it('knows when both models chose the same passage, by its id, or its text when there is none', () => {
    const same = { ...r('LSA', 'The heart is a mirror.'), id: 'ch1-2' };
    expect(sharesOnePassage([same, { ...same, model_type: 'BM25' }])).toBe(true);
    expect(sharesOnePassage([same, { ...same, id: 'ch1-3' }])).toBe(false);
    expect(sharesOnePassage([r('LSA', 'The heart. '), r('SIF', 'The heart.')])).toBe(true);
    expect(sharesOnePassage([r('LSA', 'The heart.'), r('SIF', 'The soul.')])).toBe(false);
    expect(sharesOnePassage([same])).toBe(false);
  });

  it('reads how far the pair agrees from each model’s own passages in the whole list, whatever the A/B order', () => {
    const at = (model_type: string, id: string) => ({ ...r(model_type, `text of ${id}`), id });
    // Interleaved as the server sends them: LSA p1, SIF p4, LSA p2, SIF p2, LSA p3, SIF p1.
    const results = [at('LSA', 'p1'), at('SIF', 'p4'), at('LSA', 'p2'), at('SIF', 'p2'), at('LSA', 'p3'), at('SIF', 'p1')];
    const pair = chooseAbPair(results, swap);
    expect(pair.map((x) => x.id)).toEqual(['p4', 'p1']);
    expect(pairAgreement(results, pair)).toEqual({ samePassage: false, shared: 2 });
    const same = [at('LSA', 'p1'), at('SIF', 'p1'), at('LSA', 'p2'), at('SIF', 'p9')];
    expect(pairAgreement(same, chooseAbPair(same, keep))).toEqual({ samePassage: true, shared: 1 });
    // One model alone, or no results: nothing to agree.
    expect(pairAgreement([at('LSA', 'p1')], chooseAbPair([at('LSA', 'p1')]))).toEqual({ samePassage: false, shared: 0 });
    // A server that names no model: the same first passage, by its text, is all that is known.
    expect(pairAgreement([{ text: 'x' }, { text: 'x ' }], [{ text: 'x' }, { text: 'x ' }])).toEqual({ samePassage: true, shared: 1 });
  });

  it('labels a lone result A, and no results nothing', () => {
    expect(chooseAbPair([r('X', 'x')]).map((x) => x.resultLabel)).toEqual(['A']);
    expect(chooseAbPair([])).toEqual([]);
  });
});
