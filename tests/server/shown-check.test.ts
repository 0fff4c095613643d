import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { writeVoteExport } from '../../server/modules/arena/vote-export.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { recheckVotes } from '../../server/modules/arena/recheck-votes.ts';
import { computeStats } from '../../server/modules/arena/stats/model-stats.ts';
import { saveFeedback, tallyVotes, votesVersion } from '../../server/modules/arena/sql/feedback.ts';
import { readTallies } from '../../server/modules/arena/sql/read-tallies.ts';
import { openTestDb, saveAndTally, STORES, BOUND } from './harness.ts';
import { questionId } from '../../server/modules/arena/question.ts';
import { SHOWN_RANKS, ShownCheck } from '../../server/modules/arena/shown-check.ts';
import { deviceArms, drawnPairOf, VoteCheck } from '../../server/modules/arena/vote-check.ts';
import { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

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
    expect(verdicts).toEqual(
      results.map((r) => ({ questionId: questionId(query), passageId: r.id, passageSet: engine.corpus.passageSet, passageSha256: sha256(r.text), verdict: 'shown' })),
    );
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
    const query = 'hypocrisy';
    const results = await engine.search(query, 3, ['lsa-96', 'sif-150']);
    const counting = Object.create(engine) as RetrievalEngine;
    let searches = 0;
    counting.firstPassageIds = (...args) => ((searches += 1), engine.firstPassageIds(...args));
    const check = new ShownCheck(counting, []);
    const batch = Array.from({ length: 25 }, () => results.slice(0, 2).map((r) => ({ query, model_type: r.model_type, retrieved_text: r.text }))).flat();
    expect((await check.check(batch)).every((v) => v.verdict === 'shown')).toBe(true);
    expect(searches).toBe(2);
    await check.check(batch.map((vote) => ({ ...vote, query: 'HYPOCRISY ' })));
    expect(searches).toBe(2);
  });
});

describe('offline rounds the server could not check when they arrived', () => {
  it('are checked at a start, each as the device would have answered, and then counted by the same rules', async () => {
    const test = await openTestDb('embedded');
    try {
      const query = 'hypocrisy';
      const [lsa, sif] = await engine.search(query, 3, ['lsa-96', 'sif-150']);
      // As a device's round stands when its model could not be run: unchecked, no question or passage, cast on the passages served now.
      const legacy = (label: string, model: string, text: string, round: string) =>
        test.db.query(
          // Waiting for the tallier, as a save leaves its votes.
          `WITH v AS (INSERT INTO feedback (author, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction, confidence_score, passage_set, drawn_by)
           VALUES ('reader', $1, 'Enthusiast', 'reader', $2, $3, $4, $5, '👍', 0.5, $6, 'device') RETURNING id) INSERT INTO arena_pending SELECT id FROM v`,
          [round, query, text, model, label, engine.corpus.passageSet],
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
      const check = new VoteCheck(test.db, new ShownCheck(engine, ['BGE bge-small-en-v1.5']), engine);
      expect(await recheckVotes(test.db, check, BOUND)).toBe(5);
      expect(await votesVersion(test.db)).not.toBe(version);
      const after = computeStats(await tallyVotes(test.db, 30), 30);
      // A made-up text was never shown; a model no device answers with was never its draw.
      expect(after).toMatchObject({ votes: 2, leftOutVotes: { notShown: 1, notDrawn: 2, unchecked: 0, repeat: 0 } });
      expect(after.rounds.compared).toBe(1);
      const ids = await test.db.query<{ question_id: string }>(`SELECT DISTINCT question_id FROM feedback`);
      expect(ids).toEqual([{ question_id: questionId(query) }]);
    } finally {
      await test.drop();
    }
  });
});

describe.each(STORES)('offline rounds checked at a start, in the kept tallies (%s store)', (store) => {
  it.each([
    ['', false],
    [', though still waiting for the tallier when checked', true],
  ])('count in /api/stats’s tallies once checked: the round compared, the votes by their verdicts, none unchecked%s', async (_, waiting) => {
    const test = await openTestDb(store);
    try {
      const query = 'hypocrisy';
      const [lsa, sif] = await engine.search(query, 3, ['lsa-96', 'sif-150']);
      const [one, two] = deviceArms(engine);
      // As a save stores a device's round while its models cannot be run: unchecked, its tallies kept at once.
      const unchecked = (label: string, model: string, text: string, round: string) => ({
        user_type: 'Enthusiast' as const, username: 'reader', query, retrieved_text: text, model_type: model, result_label: label as 'A' | 'B',
        reaction: label === 'A' ? ('👍' as const) : ('👎' as const), confidence_score: 0.5, client_id: randomUUID(), round_id: round,
        questionId: questionId(query), passageId: null, passageSet: engine.corpus.passageSet, passageSha256: sha256(text),
        verdict: 'unchecked' as const, drawnBy: 'device' as const, drawnPair: `device\n${drawnPairOf(one!, two!)}`,
      });
      const round = randomUUID();
      const votes = [
        unchecked('A', lsa!.model_type, lsa!.text, round),
        unchecked('B', sif!.model_type, sif!.text, round),
        unchecked('A', lsa!.model_type, 'Made up.', randomUUID()),
      ];
      const kept = async () => computeStats(await readTallies(test.db), 30);
      if (waiting) await saveFeedback(test.db, 'reader', votes);
      else {
        await saveAndTally(test.db, 'reader', votes);
        expect(await kept()).toMatchObject({ votes: 0, leftOutVotes: { unchecked: 3 }, rounds: { compared: 0, leftOut: { unchecked: 2 } } });
      }

      expect(await recheckVotes(test.db, new VoteCheck(test.db, new ShownCheck(engine, []), engine), BOUND)).toBe(3);
      const after = await kept();
      expect(after).toMatchObject({ votes: 2, leftOutVotes: { notShown: 1, unchecked: 0, repeat: 0 }, rounds: { compared: 1, fromDevice: 1, oneSided: 0 } });
      expect(after.rounds.leftOut).toMatchObject({ unchecked: 0, notShown: 1 });
      // The same as the rules worked out from every vote.
      const all = computeStats(await tallyVotes(test.db, 30), 30);
      expect([after.votes, after.leftOutVotes, after.rounds.compared, after.leaderboard]).toEqual([all.votes, all.leftOutVotes, all.rounds.compared, all.leaderboard]);
    } finally {
      await test.drop();
    }
  });
});

describe('votes cast on the first cut of the book into passages (before chunking 2)', () => {
  const v1 = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../corpus/passages-v1.json'), 'utf8')) as {
    passages: Record<string, { text: string }>;
  };

  it('keep their verdicts and their texts: never judged again by the passages served now, nor taken for them', async () => {
    const test = await openTestDb('embedded');
    try {
      // Ch. VII's 13th passage then and now: one id, two texts.
      const id = 'ch7-13';
      const now = engine.corpus.passages.find((p) => p.id === id)!;
      expect(now.text).not.toBe(v1.passages[id]!.text);
      const [lsa, sif] = engine.modelTypes();
      // As the server before this change stored them: checked against chunking 1, no passage set
      // named, a round's pair drawn by the server (its receipt's).
      const stored = (round: string | null, label: string, model: string, passage: string, verdict: string, text = v1.passages[passage]!.text) =>
        test.db.query(
          // Waiting for the tallier, as a save leaves its votes.
          `WITH v AS (INSERT INTO feedback (author, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction,
                                 confidence_score, question_id, passage_id, verdict, drawn_by, drawn_pair)
           VALUES ('reader', $1, 'Enthusiast', 'reader', 'marriage', $2, $3, $4, '👍', 0.5, $5, $6, $7, $8, $9) RETURNING id) INSERT INTO arena_pending SELECT id FROM v`,
          [round, text, model, label, questionId('marriage'), passage, verdict, round ? 'server' : null, round ? drawnPairOf(lsa!, sif!) : null],
        );
      const round = randomUUID();
      await stored(round, 'A', lsa!, 'ch7-13', 'shown');
      await stored(round, 'B', sif!, 'ch7-12', 'shown');
      // Never checked before the change (a model that could not run then): it stays so.
      await stored(null, 'A', sif!, 'ch7-14', 'unchecked');
      const before = computeStats(await tallyVotes(test.db, 30), 30);
      expect(before).toMatchObject({ votes: 2, leftOutVotes: { unchecked: 1 } });
      expect(before.rounds.compared).toBe(1);

      expect(await recheckVotes(test.db, new VoteCheck(test.db, new ShownCheck(engine, []), engine), BOUND)).toBe(0);
      const rows = await test.db.query<{ passage_id: string; passage_set: string; verdict: string }>(
        'SELECT passage_id, passage_set, verdict FROM feedback ORDER BY id',
      );
      expect(rows).toEqual([
        { passage_id: 'ch7-13', passage_set: 'v1', verdict: 'shown' },
        { passage_id: 'ch7-12', passage_set: 'v1', verdict: 'shown' },
        { passage_id: 'ch7-14', passage_set: 'v1', verdict: 'unchecked' },
      ]);
      expect(computeStats(await tallyVotes(test.db, 30), 30)).toEqual(before);

      // Today's ch7-13 is another passage than v1's, with the same id.
      const today = randomUUID();
      const checked = await new ShownCheck(engine, []).check([{ query: 'marriage', model_type: lsa!, retrieved_text: now.text }]);
      expect(checked[0]).toMatchObject({ passageId: id, passageSet: engine.corpus.passageSet });
      // A vote on v1's ch7-13 delivered now, with a receipt or as a device's round: never judged by today's passages.
      const late = new VoteCheck(test.db, new ShownCheck(engine, []), engine);
      for (const receipt of ['device', 'v1.e30.AAAA', undefined]) {
        const [old] = await late.check('reader', [{ query: 'marriage', model_type: lsa!, retrieved_text: v1.passages[id]!.text, receipt }], Date.now());
        expect(old).toMatchObject({ passageId: id, passageSet: 'v1', verdict: 'unchecked' });
      }
      await test.db.query(
        `WITH v AS (INSERT INTO feedback (author, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction,
                               confidence_score, question_id, passage_id, verdict, passage_set, drawn_by, drawn_pair)
         VALUES ('reader', $1, 'Enthusiast', 'reader', 'marriage', $2, $3, 'A', '👎', 0.5, $4, 'ch7-13', 'shown', $6, 'server', $8),
                ('reader', $1, 'Enthusiast', 'reader', 'marriage', $5, $7, 'B', '👍', 0.5, $4, 'ch7-12', 'shown', $6, 'server', $8)
         RETURNING id) INSERT INTO arena_pending SELECT id FROM v`,
        [today, now.text, lsa, questionId('marriage'), engine.corpus.passages.find((p) => p.id === 'ch7-12')!.text, engine.corpus.passageSet, sif, drawnPairOf(lsa!, sif!)],
      );
      // One reader, question and drawn pair are one round (docs/arena.md), whatever the cut: today's
      // decision counts, the earlier is left out as a repeat, and keeps its passages (below).
      const after = computeStats(await tallyVotes(test.db, 30), 30);
      expect(after.rounds).toMatchObject({ compared: 1, leftOut: { repeat: 1 } });

      // The export names each vote's passage, the cut its id belongs to, and the text it was cast on.
      const lines: string[] = [];
      const out = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
      await writeVoteExport(test.db, { format: 'jsonl', dailyRoundBound: 30 }, out);
      const exported = lines.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(exported.map((r) => [r.passage_a, r.passage_set, r.text_a])).toEqual([
        ['ch7-13', 'v1', v1.passages['ch7-13']!.text],
        ['ch7-14', 'v1', v1.passages['ch7-14']!.text],
        ['ch7-13', engine.corpus.passageSet, now.text],
      ]);
      // And says what /api/stats counts: the earlier decision a repeat, today's counted.
      expect(exported.map((r) => r.left_out_reason)).toEqual(['repeat', 'unchecked', '']);
    } finally {
      await test.drop();
    }
  });

  it('delivered late from a device that still had them, are named by their first cut and left unchecked, never not-shown', async () => {
    const [lsa] = engine.modelTypes();
    const old = v1.passages['ch7-13']!.text;
    expect(engine.corpus.passages.some((p) => p.text === old)).toBe(false);
    const [verdict] = await new ShownCheck(engine, []).check([{ query: 'marriage', model_type: lsa!, retrieved_text: ` ${old}\n` }]);
    expect(verdict).toEqual({ questionId: questionId('marriage'), passageId: 'ch7-13', passageSet: 'v1', passageSha256: sha256(old), verdict: 'unchecked' });
    const [unknown] = await new ShownCheck(engine, []).check([{ query: 'marriage', model_type: 'Made-up model', retrieved_text: old }]);
    expect(unknown!.verdict).toBe('unknown-model');
  });

  it('are told apart from today’s same id in the tallies kept at vote time: a round of the two is compared, not same-passage', async () => {
    const test = await openTestDb('embedded');
    try {
      const [lsa, sif] = engine.modelTypes();
      const drawnPair = [lsa!, sif!].sort().join('\n');
      const round = randomUUID();
      const item = (model: string, label: 'A' | 'B', reaction: '👍' | '👎', set: string) => ({
        user_type: 'Enthusiast' as const, username: 'reader', query: 'marriage', retrieved_text: `text of ${set}`, model_type: model,
        result_label: label, reaction, confidence_score: 0.5, client_id: randomUUID(), round_id: round,
        questionId: questionId('marriage'), passageId: 'ch7-13', passageSet: set, passageSha256: null, verdict: 'shown' as const, drawnBy: 'server' as const, drawnPair,
      });
      await saveAndTally(test.db, 'reader', [item(lsa!, 'A', '👍', 'v1'), item(sif!, 'B', '👎', engine.corpus.passageSet)]);
      const stats = computeStats(await readTallies(test.db), 30);
      expect(stats.rounds).toMatchObject({ compared: 1, samePassage: 0 });
    } finally {
      await test.drop();
    }
  });
});
