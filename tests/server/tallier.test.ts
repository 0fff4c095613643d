import { describe, expect, it } from 'vitest';
import { deleteFeedbackOf, saveFeedback } from '../../server/modules/arena/sql/feedback.ts';
import { rebuildTallies } from '../../server/modules/arena/sql/tallies.ts';
import { readCounts, readReaderPairs } from '../../server/modules/arena/sql/read-tallies.ts';
import { Tallier } from '../../server/modules/arena/tallier.ts';
import type { Db } from '../../server/platform/store/db.ts';
import { decidedRound, openTestDb, STORES, talliesOf, BOUND } from './harness.ts';

const round = decidedRound;
const tallies = talliesOf;

const waiting = async (db: Db) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM arena_pending'))[0]!.n;

describe.each(STORES)('the tallier on %s store', (store) => {
  it('brings a save’s votes into the tallies a moment later, with no one asking', async () => {
    const test = await openTestDb(store);
    const tallier = new Tallier({ db: test.db, bound: 30, delayMs: 20 });
    try {
      await saveFeedback(test.db, 'reader', round('reader', 'q1', '👍', '👎'));
      expect(await waiting(test.db)).toBe(2);
      expect((await readCounts(test.db)).get('rounds:compared') ?? 0).toBe(0);
      tallier.soon();
      await expect.poll(() => waiting(test.db)).toBe(0);
      expect((await readCounts(test.db)).get('rounds:compared')).toBe(1);
    } finally {
      await tallier.close();
      await test.drop();
    }
  });

  it('tallies each vote once while readers save and two talliers run at once: the tallies made again from the votes agree', async () => {
    const test = await openTestDb(store);
    // Two instances' talliers on one store, each nudged by every save, one also asked to catch up as /api/stats does.
    const talliers = [new Tallier({ db: test.db, bound: 3, delayMs: 1 }), new Tallier({ db: test.db, bound: 3, delayMs: 5 })];
    try {
      const readers = Array.from({ length: 6 }, (_, i) => `reader-${i}`);
      const reactions = ['👍', '🤷', '👎'];
      await Promise.all(
        readers.map(async (reader, r) => {
          for (let i = 0; i < 8; i++) {
            // Some rounds asked again (a repeat), more than the day's bound of 3 decided.
            await saveFeedback(test.db, reader, round(reader, `q${i % 6}`, reactions[(i + r) % 3]!, reactions[i % 3]!));
            talliers[i % 2]!.soon();
            if (i % 3 === 0) await talliers[1]!.catchUp();
          }
        }),
      );
      await talliers[0]!.catchUp();
      expect(await waiting(test.db)).toBe(0);
      const kept = await tallies(test.db);
      expect(new Map(kept.counts).get('votes:repeat')).toBeGreaterThan(0);
      expect(new Map(kept.counts).get('rounds:over-daily-bound')).toBeGreaterThan(0);
      await test.db.transaction((tx) => rebuildTallies(tx, 3), { unlimited: true });
      expect(kept).toEqual(await tallies(test.db));
    } finally {
      await Promise.all(talliers.map((t) => t.close()));
      await test.drop();
    }
  });

  it('leaves no vote of a reader forgotten before it was tallied in the tallies', async () => {
    const test = await openTestDb(store);
    const tallier = new Tallier({ db: test.db, bound: 30, delayMs: 10_000 });
    try {
      await saveFeedback(test.db, 'kept', round('kept', 'q1', '👍', '👎'));
      await saveFeedback(test.db, 'forgotten', round('forgotten', 'q1', '👎', '👍'));
      expect(await deleteFeedbackOf(test.db, 'forgotten', BOUND)).toBe(2);
      await tallier.catchUp();
      expect((await readReaderPairs(test.db)).map((p) => p.author)).toEqual(['kept']);
      expect((await readCounts(test.db)).get('rounds:compared')).toBe(1);
    } finally {
      await tallier.close();
      await test.drop();
    }
  });
});
