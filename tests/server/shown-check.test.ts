import { beforeAll, describe, expect, it } from 'vitest';
import { questionId } from '../../server/arena/question.ts';
import { SHOWN_RANKS, ShownCheck } from '../../server/arena/shown-check.ts';
import { RetrievalEngine } from '../../server/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';

let engine: RetrievalEngine;
beforeAll(async () => {
  engine = await corpusEngine();
});

describe('checking a vote against what its model shows', () => {
  it('finds a passage among its model’s first three for the question, however the question is spaced and cased', async () => {
    const query = 'What is the key to the knowledge of God?';
    const [lsa] = await engine.search(query, 3, 'both');
    const results = await engine.search(query, SHOWN_RANKS, lsa!.model);
    const check = new ShownCheck(engine, []);
    const spaced = '  what is THE key to the\tknowledge of god?  ';
    // The models read words whatever their case and spacing: the normalised question is searched alike.
    expect((await engine.search(spaced.trim(), SHOWN_RANKS, lsa!.model)).map((r) => r.id)).toEqual(results.map((r) => r.id));
    const verdicts = await check.check(results.map((r) => ({ query: spaced, model_type: r.model_type, retrieved_text: ` ${r.text}\n` })));
    expect(verdicts).toEqual(results.map((r) => ({ questionId: questionId(query), passageId: r.id, verdict: 'shown' })));
  });

  it('says not-shown for a passage the model does not return, made up or the book’s, and unknown-model or unchecked for a name it cannot run', async () => {
    const query = 'music and dancing';
    const [lsa] = await engine.search(query, 3, 'both');
    const shown = new Set((await engine.search(query, SHOWN_RANKS, lsa!.model)).map((r) => r.id));
    const other = engine.corpus.passages.find((p) => !shown.has(p.id))!;
    const check = new ShownCheck(engine, ['BGE bge-small-en-v1.5']);
    const verdicts = await check.check([
      { query, model_type: lsa!.model_type, retrieved_text: 'A passage no model ever showed.' },
      { query, model_type: lsa!.model_type, retrieved_text: other.text },
      { query, model_type: 'Visit my site', retrieved_text: lsa!.text },
      { query, model_type: 'BGE bge-small-en-v1.5', retrieved_text: lsa!.text },
    ]);
    expect(verdicts.map((v) => [v.verdict, v.passageId])).toEqual([
      ['not-shown', null],
      ['not-shown', other.id],
      ['unknown-model', lsa!.id],
      ['unchecked', lsa!.id],
    ]);
  });

  it('searches once per distinct question and model, and not again for a question it has checked', async () => {
    const query = 'envy';
    const results = await engine.search(query, 3, 'both');
    const counting = Object.create(engine) as RetrievalEngine;
    let searches = 0;
    counting.firstPassageIds = (...args) => ((searches += 1), engine.firstPassageIds(...args));
    const check = new ShownCheck(counting, []);
    const batch = Array.from({ length: 25 }, () => results.slice(0, 2).map((r) => ({ query, model_type: r.model_type, retrieved_text: r.text }))).flat();
    expect((await check.check(batch)).every((v) => v.verdict === 'shown')).toBe(true);
    expect(searches).toBe(2);
    await check.check(batch.map((vote) => ({ ...vote, query: 'ENVY ' })));
    expect(searches).toBe(2);
  });
});
