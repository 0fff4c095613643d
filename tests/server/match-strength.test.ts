import { beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, LINE_ELSEWHERE, matchStrength, saysLittle } from '../../common/search/match-strength.ts';
import { EXAMPLE_QUESTIONS } from '../../src/features/search/example-questions.ts';
import { loadQuestions, loadUnanswered } from '../../server/eval/evaluate.ts';
import { answersOf, noticeOnUnanswered, noticeRates, type ArmAnswer } from '../../server/eval/notice-calibration.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { foldedEngine, type EvalEngine } from '../../server/eval/asked.ts';
import { prefittedDataDir } from '../run-fixtures.ts';
import { silentProgress } from '../../server/platform/util/progress.ts';
import { corpusEngine, quietLog, settingsFor } from './engine-helpers.ts';

describe("a model's match strength", () => {
  it('measures how far the first passage stands above the next nine, in the model’s own scale', () => {
    // first 0.4, the next nine 0.2 on average: 0.2 above them, in units of LSA's 0.157.
    expect(matchStrength('lsa-96', [0.4, ...Array(9).fill(0.2)])).toBeCloseTo(0.2 / 0.157, 2);
    // A first passage no better than the rest, and not close, is a weak match.
    expect(matchStrength('sif-150', Array(10).fill(0.3))).toBeCloseTo(0.3 / 0.512, 3);
  });

  it('calls a close first passage an answer, however many passages are as close', () => {
    // The whole book answers "What is true happiness?": many passages alike, all close.
    expect(matchStrength('sif-150', Array(10).fill(0.55))).toBeGreaterThan(1);
  });

  it('is less sure of a first passage when the gloss line closest to the question is another passage’s', () => {
    const ranks = [0.4, ...Array(9).fill(0.2)];
    const own = matchStrength('lsa-96', ranks)!;
    expect(matchStrength('lsa-96', ranks, 1, true)).toBeCloseTo(own - LINE_ELSEWHERE, 3);
    expect(matchStrength('lsa-96', ranks, 1, false)).toBe(own);
    // Never below nothing, and a question of words the book does not know has none either way.
    expect(matchStrength('lsa-96', Array(10).fill(0.01), 1, true)).toBe(0);
    expect(matchStrength('lsa-96', ranks, 0.5, true)).toBe(0);
  });

  it('counts missing ranks as nothing found, and gives nothing for a model with no scale', () => {
    expect(matchStrength('lsa-96', [0.157])).toBeCloseTo(1, 3);
    expect(matchStrength('lsa-96', [])).toBe(0);
    expect(matchStrength('bm25', [0.9, 0.1])).toBeUndefined();
  });
});

describe('the notice that the book says little', () => {
  it('appears when the arms shown have, on average, a strength below 1', () => {
    expect(saysLittle([0.4, 0.9])).toBe(true);
    expect(saysLittle([0.4, 1.8])).toBe(false);
  });

  it('counts two arms choosing the same passage as a sign the book answers', () => {
    const same = agreementOf([['p1', 'p2', 'p3'], ['p1', 'p7', 'p8']]);
    expect(same).toEqual({ samePassage: true, shared: 1 });
    expect(saysLittle([0.8, 0.9])).toBe(true);
    // 0.85 + 0.18 for the same first passage + 0.09 for the one passage shared.
    expect(saysLittle([0.8, 0.9], same)).toBe(false);
    expect(saysLittle([0.4, 0.6], same)).toBe(true);
    // One arm alone meets no other, and is held to a bar of 0.63.
    expect(saysLittle([0.62, undefined], same)).toBe(true);
    expect(saysLittle([0.64, undefined])).toBe(false);
  });

  it('counts each passage both arms have among their first three, in whatever order', () => {
    // Different first passages, two shared further down: 0.8 + 2 × 0.09 = 0.98, still below 1.
    expect(agreementOf([['p1', 'p2', 'p3', 'p4'], ['p9', 'p3', 'p2']])).toEqual({ samePassage: false, shared: 2 });
    expect(saysLittle([0.75, 0.85], { samePassage: false, shared: 2 })).toBe(true);
    // All three shared: 0.8 + 0.18 + 3 × 0.09 = 1.25.
    const all = agreementOf([['p1', 'p2', 'p3'], ['p1', 'p3', 'p2']]);
    expect(all).toEqual({ samePassage: true, shared: 3 });
    expect(saysLittle([0.75, 0.85], all)).toBe(false);
    // Passages past the third, and lists other than a pair, count for nothing.
    expect(agreementOf([['p1', 'p2', 'p3', 'p4'], ['p5', 'p6', 'p7', 'p4']])).toEqual({ samePassage: false, shared: 0 });
    expect(agreementOf([['p1', 'p2', 'p3']])).toEqual({ samePassage: false, shared: 0 });
    expect(agreementOf([['p1'], ['p1'], ['p1']])).toEqual({ samePassage: false, shared: 0 });
  });

  it('gives no strength to a match when the book knows under 80% of the question’s words, however close the passage', () => {
    const close = [0.9, ...Array(9).fill(0.1)];
    expect(matchStrength('lsa-96', close, 1)).toBeGreaterThan(1);
    expect(matchStrength('lsa-96', close, 0.8)).toBeGreaterThan(1);
    expect(matchStrength('lsa-96', close, 0.79)).toBe(0);
    // Where the model does not say, the similarities alone.
    expect(matchStrength('lsa-96', close)).toBe(matchStrength('lsa-96', close, 1));
  });

  it('weighs only the arms that have a strength, and stays silent when none has', () => {
    expect(saysLittle([0.5, undefined])).toBe(true);
    expect(saysLittle([1.5, undefined])).toBe(false);
    expect(saysLittle([undefined, undefined])).toBe(false);
  });
});

describe('the notice on the book', () => {
  let engine: RetrievalEngine;
  beforeAll(async () => {
    engine = await corpusEngine();
  }, 120_000);

  /** Both vector arms' answers to the questions, as the eval weighs the notice. */
  const bothArms = async (queries: string[], from: EvalEngine = engine): Promise<Array<{ model: string; answers: ArmAnswer[] }>> =>
    Promise.all(['lsa-96', 'sif-150'].map(async (model) => ({ model, answers: await answersOf((query, m) => from.search(query, 10, m), model, queries) })));

  const firstThree = async (query: string) => Promise.all(['lsa-96', 'sif-150'].map(async (model) => engine.search(query, 3, model)));

  it('never appears on the questions the app offers as examples (the README’s among them), whichever arms are shown', async () => {
    for (const question of EXAMPLE_QUESTIONS) {
      const [lsaResults, sifResults] = await firstThree(question);
      const [lsa, sif] = [lsaResults![0], sifResults![0]];
      const agreement = agreementOf([lsaResults!, sifResults!].map((results) => results.map((r) => r.id)));
      expect(saysLittle([lsa!.strength, sif!.strength], agreement), question).toBe(false);
      // Beside the keyword arm, which has no strength: each vector arm alone.
      expect(saysLittle([lsa!.strength, undefined]), `${question} (LSA beside BM25)`).toBe(false);
      expect(saysLittle([undefined, sif!.strength]), `${question} (SIF beside BM25)`).toBe(false);
    }
  });

  it('on the dev questions, appears on at least 60% of those whose first three miss and at most 8% of those answered right first', async () => {
    // Each dev question is asked of the models fitted without its fold's asked questions, as the
    // eval asks it. With the questions asked in the index, fewer dev questions miss (LSA 128, SIF
    // 132 of 1,419) and those that do are harder to tell from weak right answers. Where the gloss
    // line closest to the question is another passage's (LINE_ELSEWHERE), 65% and 63% are flagged
    // at 7.8% and 5.8% of the right first passages; without it, 53% and 49% at 6% and 4%.
    const all = await loadQuestions();
    const folded: EvalEngine = await foldedEngine(await settingsFor({ modelLineup: 'corpus', dataDir: await prefittedDataDir('folds-') }), all, silentProgress, quietLog);
    const questions = all.filter((q) => q.part === 'dev');
    const arms = await bothArms(questions.map((q) => q.query), folded);
    for (const arm of arms) {
      const rates = noticeRates(questions, arm.answers, arms);
      expect(rates.onMisses, arm.model).toBeGreaterThanOrEqual(0.6);
      expect(rates.onHits, arm.model).toBeLessThanOrEqual(0.08);
    }
  }, 120_000);

  it("reads the share of a question's words the book knows after mending its slips, and gives a question mostly of other words no strength", async () => {
    const share = (query: string) => {
      const entry = engine.entries.find((e) => e.id === 'lsa-96');
      if (!entry || !('index' in entry)) throw new Error('no LSA');
      return entry.index.model.bookShare!(query);
    };
    expect(share('How can I stop worrying about what other people think of me?')).toBe(1);
    // "afterlife" is the thesaurus's (the book says "the next world"), "remembrance" the book's own.
    expect(share('afterlife remembrance')).toBe(1);
    // A slip is mended first: "rememberance" is the book's word.
    expect(share('rememberance of death')).toBe(1);
    // A form of the book's word, in another spelling, is the book's: "neighbors", "heavenly".
    expect(share('How should I treat my neighbors?')).toBe(1);
    expect(share('What is the heavenly reward of patience?')).toBe(1);
    // A word neither the book nor a question asked of it uses, but WordNet relates to the book's
    // own ("tsar": king), counts half. ("monarch" is a reader's word now: an asked question uses it.)
    expect(share('How should a tsar rule justly?')).toBeCloseTo(2.5 / 3, 3);
    // A short word the book does not know is mostly a slip of a short word, and is left out.
    expect(share('whta does the bok say abot marraige')).toBe(1);
    expect(share('im scsred of deth what do i do')).toBe(1);
    expect(share('How do I descale a kettle with vinegar?')).toBeLessThan(0.8);
    expect(share('How do I reset my iPhone password?')).toBeLessThan(0.8);
    for (const model of ['lsa-96', 'sif-150']) {
      const [first] = await engine.search('How do I descale a kettle with vinegar?', 3, model);
      expect(first?.strength, model).toBe(0);
      const [neighbours] = await engine.search('How should I treat my neighbors?', 3, model);
      expect(neighbours?.strength, model).toBeGreaterThan(0);
    }
  });

  it('on the dev questions the book does not answer, appears on at least 65% with both arms shown and 55% with either alone', async () => {
    const questions = (await loadUnanswered()).filter((q) => q.part === 'dev');
    expect(questions.length).toBeGreaterThan(40);
    const arms = await bothArms(questions.map((q) => q.query));
    expect(noticeOnUnanswered(arms)).toBeGreaterThanOrEqual(0.65);
    for (const arm of arms) expect(noticeOnUnanswered([arm]), arm.model).toBeGreaterThanOrEqual(0.55);
  }, 120_000);
});
