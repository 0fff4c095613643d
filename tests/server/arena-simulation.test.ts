import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FeedbackItem } from '../../contract/api-schemas.ts';
import { groupScenario } from '../../server/eval/arena-group-report.ts';
import { questionId } from '../../server/modules/arena/question.ts';
import { ShownCheck } from '../../server/modules/arena/shown-check.ts';
import { VoteCheck } from '../../server/modules/arena/vote-check.ts';
import { DEFAULT_SIMULATION, simulateArena, type SimulatedArm } from '../../server/eval/arena-simulation.ts';
import { VoteService } from '../../server/modules/arena/vote-service.ts';
import { seededRandom } from '../../common/seeded-random.ts';
import { loadQuestions } from '../../server/eval/evaluate.ts';
import type { EvalQuestion } from '../../server/eval/metrics.ts';
import { computeStats } from '../../server/modules/arena/stats/model-stats.ts';
import { openEmbeddedDb, type Db } from '../../server/platform/store/db.ts';
import { migrate } from '../../server/platform/store/migrate.ts';
import { corpusEngine } from './engine-helpers.ts';
import { saveFeedback, tallyVotes } from '../../server/modules/arena/sql/feedback.ts';
import { drawnPairOf } from '../../server/modules/arena/vote-check.ts';

/**
 * An arm that puts a passage holding the question's gold quote first for about `hitRate` of the
 * questions, and a passage of its own otherwise (arms that both find the gold passage show the
 * same one, as real arms do).
 */
function arm(modelType: string, hitRate: number, questions: EvalQuestion[], seed: number): SimulatedArm {
  const random = seededRandom(seed);
  return {
    modelType,
    firsts: questions.map((q, i) => (random() < hitRate ? { id: `gold-${i}`, text: `… ${q.gold[0]} …` } : { id: `${modelType}-${i}`, text: `A passage of ${modelType} on another matter (${i}).` })),
  };
}

describe('the arena simulation, through the real draw, store and statistics', () => {
  let db: Db;
  let questions: EvalQuestion[];
  beforeAll(async () => {
    db = await openEmbeddedDb();
    await migrate(db);
    questions = (await loadQuestions()).slice(0, 150);
  });
  afterAll(() => db.close());

  it('recovers the best arm from a few hundred rounds of noisy votes', async () => {
    const arms = [arm('SIF s', 0.45, questions, 2), arm('BM25 k', 0.25, questions, 3), arm('LSA l', 0.7, questions, 1)];
    const seen: number[] = [];
    const report = await simulateArena(db, {
      ...DEFAULT_SIMULATION,
      dailyRoundBound: 30,
      // As the stats tests store votes: checked as shown (these arms are no models a shown check
      // could run), a passage's id its text.
      // The pair drawn is the round's two arms, as its receipt says.
      save: (reader, items) => {
        const drawnPair = drawnPairOf(items[0]!.model_type, (items[1] ?? items[0])!.model_type);
        return saveFeedback(db, reader, items.map((item) => ({ ...item, questionId: questionId(item.query), passageId: item.retrieved_text, passageSet: 'now', passageSha256: null, verdict: 'shown', drawnBy: 'server', drawnPair })));
      },
      arms,
      questions,
      rounds: 300,
      checkpoints: [100, 200, 300],
      seed: 7,
      onCheckpoint: (c) => seen.push(c.rounds),
    });
    expect(report.trueOrder).toEqual(['LSA l', 'SIF s', 'BM25 k']);
    expect(seen).toEqual([100, 200, 300]);
    const last = report.checkpoints.at(-1)!;
    expect(last.order[0]).toBe('LSA l');
    expect(last.leaderboard!.separation.leader).toBe('LSA l');
    // The best and the worst arm were told apart (their 95% intervals), and stayed so.
    const far = report.pairs.find((p) => p.better === 'LSA l' && p.worse === 'BM25 k')!;
    expect(far.onlyBetter).toBeGreaterThan(far.onlyWorse);
    expect(far.apartFrom).not.toBeNull();
    // Every round was voted on, the rounds showing one passage counted apart.
    expect(report.unanswered).toBe(0);
    expect(last.decided).toBeGreaterThan(150);
    expect(last.decided).toBeLessThan(300);
    // The draw kept the pairs balanced: no pair has half as many decided rounds again as another.
    const rounds = new Map<string, number>();
    for (const p of last.leaderboard!.pairs) if (p.model < p.opponent) rounds.set(`${p.model} ${p.opponent}`, p.wins + p.ties + p.losses);
    expect(rounds.size).toBe(3);
    expect(Math.max(...rounds.values()) / Math.min(...rounds.values())).toBeLessThan(1.5);
  });

  it('plays each step of a group of accounts afresh: the readers counted are that step’s honest readers and accounts', async () => {
    const group = await openEmbeddedDb();
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    try {
      await migrate(group);
      const arms = [arm('LSA l', 0.7, questions, 4), arm('SIF s', 0.45, questions, 5)];
      const save = (reader: string, items: FeedbackItem[]) =>
        saveFeedback(group, reader, items.map((item) => ({ ...item, questionId: questionId(item.query), passageId: item.retrieved_text, passageSet: 'now', passageSha256: null, verdict: 'shown', drawnBy: 'server', drawnPair: drawnPairOf('LSA l', 'SIF s') })));
      await groupScenario(group, arms, questions, { honest: 3, accounts: 2, preference: 0.8, seed: 2 }, save, 30);
    } finally {
      log.mockRestore();
      await group.close();
    }
    // | honest | accounts | leader | difference | readers | verdict |
    const rows = printed.filter((line) => /^\| \d+ \| \d+ \|/.test(line)).map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map((r) => [Number(r[1]), Number(r[2]), Number(r[5])])).toEqual([
      [3, 0, 3], [3, 1, 4], [3, 2, 5],
      [6, 0, 6], [6, 1, 7], [6, 2, 8],
      [12, 0, 12], [12, 1, 13], [12, 2, 14],
    ]);
  });

  it('plays the real pool through the vote service: every vote passes the shown check and counts', async () => {
    const engine = await corpusEngine();
    const real = await openEmbeddedDb();
    try {
      await migrate(real);
      const few = questions.slice(0, 40);
      const arms: SimulatedArm[] = [];
      for (const arm of engine.pool()) {
        const firsts = [];
        for (const q of few) {
          const [first] = await engine.search(q.query, 1, arm.id);
          firsts.push(first ? { id: first.id, text: first.text } : null);
        }
        arms.push({ modelType: arm.modelType, firsts });
      }
      const votes = new VoteService({ db: real, check: new VoteCheck(real, new ShownCheck(engine, engine.modelTypes()), engine), voteRateLimit: 0, now: Date.now });
      const report = await simulateArena(real, {
        ...DEFAULT_SIMULATION,
        dailyRoundBound: 30,
        save: (reader, items) => votes.save(reader, items, null),
        arms,
        questions: few,
        rounds: 60,
        checkpoints: [60],
        seed: 3,
      });
      expect(report.trueOrder).toHaveLength(3);
      const stats = computeStats(await tallyVotes(real, 30), 30);
      // The keyword arm's passages pass the check as the vector models' do: nothing left out but
      // the rounds that showed one passage twice.
      expect(stats.leftOut).toBe(0);
      expect(Object.values(stats.rounds.leftOut).every((n) => n === 0)).toBe(true);
      expect(stats.rounds.compared + stats.rounds.samePassage).toBe(60 - report.unanswered);
      expect(new Set(stats.models.map((m) => m.model))).toEqual(new Set(engine.modelTypes()));
    } finally {
      await real.close();
    }
  }, 120_000);
});
