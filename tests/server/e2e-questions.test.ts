import { describe, expect, it } from 'vitest';
import { DEVICE_QUESTIONS_OF_TWO_CARDS, QUESTION_OF_ONE_CARD, QUESTIONS_OF_TWO_CARDS, TRIALS, trialQuestion } from '../e2e/questions.ts';
import { corpusEngine } from './engine-helpers.ts';

describe("the end-to-end suite's questions", () => {
  it('show two different first passages whichever pair of the pool is drawn, or one for the question of one card', async () => {
    const engine = await corpusEngine();
    const models = engine.pool().map((arm) => arm.id);
    expect(models.length).toBeGreaterThanOrEqual(3);
    for (const question of [...QUESTIONS_OF_TWO_CARDS, ...Array.from({ length: TRIALS }, (_, i) => trialQuestion(i + 1))]) {
      const firsts = await Promise.all(models.map(async (model) => (await engine.search(question, 1, model))[0]!.id));
      expect(new Set(firsts).size, `${question}: ${firsts.join(', ')}`).toBe(models.length);
    }
    const firsts = await Promise.all(models.map(async (model) => (await engine.search(QUESTION_OF_ONE_CARD, 1, model))[0]!.id));
    expect(new Set(firsts).size, `${QUESTION_OF_ONE_CARD}: ${firsts.join(', ')}`).toBe(1);
  }, 120_000);

  it('asked of the device, show two different first passages from its models, LSA and SIF', async () => {
    const engine = await corpusEngine();
    for (const question of Object.values(DEVICE_QUESTIONS_OF_TWO_CARDS)) {
      const firsts = await Promise.all(['lsa-96', 'sif-150'].map(async (model) => (await engine.search(question, 1, model))[0]!.id));
      expect(new Set(firsts).size, `${question}: ${firsts.join(', ')}`).toBe(2);
    }
  });
});
