import { describe, expect, it } from 'vitest';
import { DEVICE_QUESTIONS_OF_TWO_CARDS, QUESTION_OF_ONE_CARD, QUESTIONS_OF_TWO_CARDS, TRIALS, trialQuestion } from '../e2e/questions.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';

/** How many different first passages `models` give `question`, and which (for the failure's message). */
async function firstPassages(engine: RetrievalEngine, question: string, models: readonly string[]): Promise<{ distinct: number; said: string }> {
  const firsts = await Promise.all(models.map(async (model) => (await engine.search(question, 1, model))[0]!.id));
  return { distinct: new Set(firsts).size, said: `${question}: ${firsts.join(', ')}` };
}

describe("the end-to-end suite's questions", () => {
  it('show two different first passages whichever pair of the pool is drawn, or one for the question of one card', async () => {
    const engine = await corpusEngine();
    const models = engine.pool().map((arm) => arm.id);
    expect(models.length).toBeGreaterThanOrEqual(3);
    for (const question of [...QUESTIONS_OF_TWO_CARDS, ...Array.from({ length: TRIALS }, (_, i) => trialQuestion(i + 1))]) {
      const { distinct, said } = await firstPassages(engine, question, models);
      expect(distinct, said).toBe(models.length);
    }
    const { distinct, said } = await firstPassages(engine, QUESTION_OF_ONE_CARD, models);
    expect(distinct, said).toBe(1);
  }, 120_000);

  it('asked of the device, show two different first passages from its models, LSA and SIF', async () => {
    const engine = await corpusEngine();
    for (const question of Object.values(DEVICE_QUESTIONS_OF_TWO_CARDS)) {
      const { distinct, said } = await firstPassages(engine, question, ['lsa-96', 'sif-150']);
      expect(distinct, said).toBe(2);
    }
  });
});
