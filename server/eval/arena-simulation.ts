import type { FeedbackItem, Leaderboard } from '../../contract/api-schemas.ts';
import type { Reaction } from '../../contract/vocabulary.ts';
import { seededRandom } from '../../common/seeded-random.ts';
import { firstHitRank, type EvalQuestion } from './metrics.ts';
import { computeStats } from '../modules/arena/index.ts';
import type { Db } from '../platform/store/db.ts';
import { roundReceipt, tallyVotes } from '../modules/arena/index.ts';
import { decidedRoundsPerPair, leastDecidedPair, pairCounts } from '../modules/arena/index.ts';

/** A passage as a reader is shown it. */
export interface ShownPassage {
  id: string;
  text: string;
}

/** An arm as the simulation plays it: the name its votes carry, and its first passage for each question (null: none found). */
export interface SimulatedArm {
  modelType: string;
  firsts: Array<ShownPassage | null>;
}

export interface SimulationSettings {
  arms: SimulatedArm[];
  /** The questions readers ask, in the order of each arm's `firsts`. */
  questions: EvalQuestion[];
  rounds: number;
  /** After how many rounds the leaderboard is read and reported. */
  checkpoints: number[];
  seed: number;
  /** Share of votes turned at random into one of the other two reactions. */
  flip: number;
  /** Share of votes a reader gives 🤷 instead of 👍 or 👎 (before the flips). */
  shrug: number;
  /** Rounds between two reads of the decided rounds per pair (an instance's cache of them). */
  refreshEvery: number;
  /**
   * Readers take turns, at most this many rounds each (fewer than the daily bound, so that all
   * count), and each asks a question once (a reader's vote again on a question, model and passage
   * replaces the first).
   */
  roundsPerReader: number;
  /** How many decided rounds a reader a day count (ARENA_DAILY_ROUNDS). */
  dailyRoundBound: number;
  /**
   * Stores a reader's votes, as /api/save does: through the vote service, which checks each
   * passage against what its model shows (npm run arena:simulate).
   */
  save: (reader: string, items: FeedbackItem[]) => Promise<unknown>;
  /** Told each checkpoint as it is reached. */
  onCheckpoint?: (checkpoint: Checkpoint) => void;
}

export const DEFAULT_SIMULATION = { flip: 0.15, shrug: 0.1, refreshEvery: 10, roundsPerReader: 20 } as const;

export interface Checkpoint {
  rounds: number;
  /** Rounds that compared two passages (both shown, different). */
  decided: number;
  leaderboard: Leaderboard | null;
  /** The leaderboard's order, strongest first. */
  order: string[];
  /** Whether it is the arms' true order (by hit@1). */
  recovered: boolean;
}

export interface SimulationReport {
  /** Each arm's hit@1 on the questions: the share whose first passage holds a gold quote. */
  hitAt1: Map<string, number>;
  /** The arms by hit@1, best first: the order the votes should recover. */
  trueOrder: string[];
  checkpoints: Checkpoint[];
  /** The first checkpoint from which every later one had the true order (null: the last did not). */
  recoveredFrom: number | null;
  /** The first checkpoint from which the top two stayed separated at 95% (null: never). */
  separatedFrom: number | null;
  /** Rounds in which one of the two arms found no passage: shown one passage, no comparison. */
  unanswered: number;
  /** Every pair of arms, the better by hit@1 first: what readers would say of them, and when the leaderboard told them apart. */
  pairs: PairOutcome[];
}

export interface PairOutcome {
  better: string;
  worse: string;
  /** Of the questions, the share where their first passages differ and only `better`'s holds a gold quote; and only `worse`'s. */
  onlyBetter: number;
  onlyWorse: number;
  /** The first checkpoint from which their 95% intervals stayed apart, `better` above (null: not by the last). */
  apartFrom: number | null;
}

const OTHER: Record<Reaction, [Reaction, Reaction]> = { '👍': ['🤷', '👎'], '🤷': ['👍', '👎'], '👎': ['👍', '🤷'] };

/** Whether a passage holds one of the question's gold quotes. */
const holdsGold = (passage: ShownPassage, question: EvalQuestion) => firstHitRank([passage.text], question.gold) === 1;

/** A UUID made from a counter (a seeded run makes the same ids). */
const uuid = (kind: number, n: number) => `00000000-0000-4000-${8000 + kind}-${String(n).padStart(12, '0')}`;

/**
 * Readers playing the arena: each asks one of the evaluation's questions, is shown the first
 * passages of the pair the draw gives (the pair with the fewest decided rounds, as the server
 * draws it, from counts read every few rounds), and rates a passage 👍 when it holds a gold
 * quote, 👎 otherwise, 🤷 sometimes, with a share of votes flipped at random. A passage both arms
 * chose is rated once for both (as the dashboard takes it). The votes are stored by `save` in
 * `db` and counted by the same functions /api/stats uses, by the arena's rules; at each
 * checkpoint, the leaderboard is read.
 */
export async function simulateArena(db: Db, settings: SimulationSettings): Promise<SimulationReport> {
  const { arms, questions } = settings;
  const hitAt1 = new Map(arms.map((arm) => [arm.modelType, arm.firsts.filter((p, i) => p !== null && holdsGold(p, questions[i]!)).length / questions.length]));
  const trueOrder = [...hitAt1].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([arm]) => arm);
  const random = seededRandom(settings.seed);
  const names = arms.map((arm) => arm.modelType);
  const byName = new Map(arms.map((arm) => [arm.modelType, arm]));
  const react = (passage: ShownPassage, question: EvalQuestion): Reaction => {
    let reaction: Reaction = holdsGold(passage, question) ? '👍' : '👎';
    if (random() < settings.shrug) reaction = '🤷';
    if (random() < settings.flip) reaction = OTHER[reaction][random() < 0.5 ? 0 : 1];
    return reaction;
  };

  let decided = new Map<string, number>();
  let reader = 0;
  let asked = new Set<number>();
  let items = 0;
  let unanswered = 0;
  const checkpoints: Checkpoint[] = [];
  const wanted = new Set(settings.checkpoints.filter((n) => n <= settings.rounds));
  for (let round = 1; round <= settings.rounds; round++) {
    if ((round - 1) % settings.refreshEvery === 0) decided = decidedRoundsPerPair((await tallyVotes(db, settings.dailyRoundBound)).rounds);
    const q = Math.floor(random() * questions.length);
    const question = questions[q]!;
    if (asked.size >= settings.roundsPerReader || asked.has(q)) [reader, asked] = [reader + 1, new Set()];
    asked.add(q);
    const pair = leastDecidedPair(pairCounts(names, decided), random);
    const shown = pair.map((name) => byName.get(name)!.firsts[q] ?? null);
    if (shown[0] && shown[1]) {
      const [a, b] = shown as [ShownPassage, ShownPassage];
      const reactions = a.id === b.id ? [react(a, question)] : [react(a, question), react(b, question)];
      // The search's receipt, as the server signs it for this reader, question and draw.
      const receipt = await roundReceipt(db, `reader-${reader}`, question.query, pair, [a.id, b.id], Date.now());
      const vote = (label: 'A' | 'B', model: string, passage: ShownPassage, reaction: Reaction): FeedbackItem => ({
        user_type: 'Enthusiast',
        username: `reader-${reader}`,
        query: question.query,
        retrieved_text: passage.text,
        model_type: model,
        result_label: label,
        reaction,
        confidence_score: 0,
        client_id: uuid(0, ++items),
        round_id: uuid(1, round),
        receipt,
      });
      await settings.save(`reader-${reader}`, [vote('A', pair[0], a, reactions[0]!), vote('B', pair[1], b, reactions.at(-1)!)]);
    } else {
      unanswered += 1;
    }
    if (wanted.has(round)) {
      const stats = computeStats(await tallyVotes(db, settings.dailyRoundBound), settings.dailyRoundBound);
      const order = stats.leaderboard?.arms.map((arm) => arm.model) ?? [];
      const checkpoint = {
        rounds: round,
        decided: stats.rounds.compared,
        leaderboard: stats.leaderboard,
        order,
        recovered: order.length === trueOrder.length && order.every((arm, i) => arm === trueOrder[i]),
      };
      checkpoints.push(checkpoint);
      settings.onCheckpoint?.(checkpoint);
    }
  }
  const from = (holds: (c: Checkpoint) => boolean) => {
    let at: number | null = null;
    for (const c of checkpoints) at = holds(c) ? (at ?? c.rounds) : null;
    return at;
  };
  const pairs = trueOrder.flatMap((better, i) =>
    trueOrder.slice(i + 1).map((worse): PairOutcome => {
      const only = (arm: string, other: string) =>
        questions.filter((question, q) => {
          const [mine, theirs] = [byName.get(arm)!.firsts[q], byName.get(other)!.firsts[q]];
          return mine && mine.id !== theirs?.id && holdsGold(mine, question) && !(theirs && holdsGold(theirs, question));
        }).length / questions.length;
      const apart = (c: Checkpoint) => {
        const [up, down] = [better, worse].map((arm) => c.leaderboard?.arms.find((a) => a.model === arm));
        return up !== undefined && down !== undefined && up.low > down.high;
      };
      return { better, worse, onlyBetter: only(better, worse), onlyWorse: only(worse, better), apartFrom: from(apart) };
    }),
  );
  return {
    hitAt1,
    trueOrder,
    checkpoints,
    recoveredFrom: from((c) => c.recovered),
    separatedFrom: from((c) => c.leaderboard?.separation.separated === true && c.leaderboard.separation.leader === trueOrder[0]),
    unanswered,
    pairs,
  };
}
