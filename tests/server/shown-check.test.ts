import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { recheckVotes } from '../../server/modules/arena/recheck-votes.ts';
import { computeStats } from '../../server/modules/arena/stats/model-stats.ts';
import { tallyVotes, votesVersion } from '../../server/modules/arena/sql/feedback.ts';
import { openTestDb } from './harness.ts';
import { questionId } from '../../server/modules/arena/question.ts';
import { SHOWN_RANKS, ShownCheck } from '../../server/modules/arena/shown-check.ts';
import { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';

let engine: RetrievalEngine;
beforeAll(async () => {
  engine = await corpusEngine();
});

describe('checking a vote against what its model shows', () => {
  it('finds a passage among its model’s first three for the question, however the question is spaced and cased', async () => {
    const query = 'What is the key to the knowledge of God?';
    const [lsa] = await engine.search(query, 3, ['lsa-96', 'sif-150']);
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
    const [lsa] = await engine.search(query, 3, ['lsa-96', 'sif-150']);
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
    const results = await engine.search(query, 3, ['lsa-96', 'sif-150']);
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

describe('votes saved before the checks', () => {
  it('are checked at a start, each by what its model shows now, and then counted by the same rules', async () => {
    const test = await openTestDb('embedded');
    try {
      const query = 'envy';
      const [lsa, sif] = await engine.search(query, 3, ['lsa-96', 'sif-150']);
      // As votes stood before migration 006: no question, passage or verdict.
      const legacy = (label: string, model: string, text: string, round: string) =>
        test.db.query(
          `INSERT INTO feedback (author, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction, confidence_score)
           VALUES ('reader', $1, 'Enthusiast', 'reader', $2, $3, $4, $5, '👍', 0.5)`,
          [round, query, text, model, label],
        );
      const round = randomUUID();
      await legacy('A', lsa!.model_type, lsa!.text, round);
      await legacy('B', sif!.model_type, sif!.text, round);
      await legacy('A', lsa!.model_type, 'Made up.', randomUUID());
      await legacy('A', 'Made-up model', lsa!.text, randomUUID());
      await legacy('A', 'BGE bge-small-en-v1.5', lsa!.text, randomUUID());
      const before = computeStats(await tallyVotes(test.db, 30), 30);
      expect(before).toMatchObject({ votes: 0, leftOutVotes: { unchecked: 5 } });
      const version = await votesVersion(test.db);
      expect(await recheckVotes(test.db, new ShownCheck(engine, ['BGE bge-small-en-v1.5']))).toBe(4);
      expect(await votesVersion(test.db)).not.toBe(version);
      const after = computeStats(await tallyVotes(test.db, 30), 30);
      expect(after).toMatchObject({ votes: 2, leftOutVotes: { notShown: 1, unknownModel: 1, unchecked: 1, repeat: 0 } });
      expect(after.rounds.compared).toBe(1);
      const ids = await test.db.query<{ question_id: string }>(`SELECT DISTINCT question_id FROM feedback`);
      expect(ids).toEqual([{ question_id: questionId(query) }]);
    } finally {
      await test.drop();
    }
  });
});
