import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackItem } from '../../contract/api-schemas.ts';
import { DECIDED_ROUNDS_TTL_MS, DecidedRounds } from '../../server/modules/arena/decided-rounds.ts';
import { pairKey } from '../../server/modules/arena/draw.ts';
import { questionId } from '../../server/modules/arena/question.ts';
import { drawnPairOf } from '../../server/modules/arena/vote-check.ts';
import type { CheckedFeedback } from '../../server/modules/arena/sql/feedback.ts';
import { openTestDb, saveAndTally, STORES, TestClock, voteItem, type TestDb } from './harness.ts';

describe.each(STORES)('the decided rounds the draw balances (%s store)', (kind) => {
  let test: TestDb;
  beforeAll(async () => {
    test = await openTestDb(kind);
  });
  afterAll(() => test.drop());

  let rounds = 0;
  /** A round rated on both sides, each of its own question, with two different passages (or the same one), as the vote service saves it. */
  const round = (a: string, b: string, same = false): CheckedFeedback[] => {
    const round_id = crypto.randomUUID();
    const query = `question ${++rounds}`;
    const side = (model_type: string, result_label: 'A' | 'B', passage: string): CheckedFeedback => ({
      ...(voteItem({ model_type, result_label, query, retrieved_text: passage, round_id, client_id: crypto.randomUUID() }) as FeedbackItem),
      questionId: questionId(query),
      passageId: passage,
      passageSet: 'now',
      passageSha256: null,
      verdict: 'shown',
      drawnBy: 'server',
      drawnPair: drawnPairOf(a, b),
    });
    return [side(a, 'A', 'one'), side(b, 'B', same ? 'one' : 'two')];
  };

  it('reads them first, keeps them a while, then reads them again behind a search, same-passage rounds left out', async () => {
    const clock = new TestClock();
    const errors: unknown[] = [];
    const decided = new DecidedRounds(test.db, { now: clock.now, dailyRoundBound: 30, onError: (error) => errors.push(error) });
    await saveAndTally(test.db, 'reader', [...round('LSA l', 'SIF s'), ...round('SIF s', 'LSA l'), ...round('LSA l', 'BM25 k', true)]);
    // The first search waits for them.
    expect(await decided.current()).toEqual(new Map([[pairKey('LSA l', 'SIF s'), 2]]));
    await saveAndTally(test.db, 'reader', round('BM25 k', 'SIF s'));
    clock.advance(DECIDED_ROUNDS_TTL_MS / 2000);
    expect((await decided.current()).get(pairKey('BM25 k', 'SIF s'))).toBeUndefined();
    // Once they are old, a search still gets them as they were, and they are read again behind it.
    // Old is the TTL, or 50 times what the last read cost where that is longer: on a loaded
    // machine the first read of a fresh store takes over 300 ms, so the clock goes well past both.
    clock.advance((DECIDED_ROUNDS_TTL_MS * 6) / 1000);
    expect((await decided.current()).get(pairKey('BM25 k', 'SIF s'))).toBeUndefined();
    await expect.poll(async () => (await decided.current()).get(pairKey('BM25 k', 'SIF s'))).toBe(1);
    expect(errors).toEqual([]);
  });

  it('keeps the last counts, and says why, while the store cannot count', async () => {
    const clock = new TestClock();
    const errors: unknown[] = [];
    const other = await openTestDb(kind);
    await saveAndTally(other.db, 'reader', round('LSA l', 'SIF s'));
    const decided = new DecidedRounds(other.db, { now: clock.now, dailyRoundBound: 30, onError: (error) => errors.push(error) });
    const before = await decided.current();
    expect(before.get(pairKey('LSA l', 'SIF s'))).toBe(1);
    await other.drop();
    clock.advance(DECIDED_ROUNDS_TTL_MS / 1000);
    expect(await decided.current()).toEqual(before);
    await expect.poll(() => errors.length).toBe(1);
    expect(await decided.current()).toEqual(before);
  });
});
