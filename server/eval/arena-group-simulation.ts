import type { FeedbackItem, Leaderboard } from '../../contract/api-schemas.ts';
import { seededRandom } from '../../common/seeded-random.ts';
import { computeStats, roundReceipt, tallyVotes } from '../modules/arena/index.ts';
import type { Db } from '../platform/store/db.ts';
import type { ShownPassage } from './arena-simulation.ts';

/** Two arms and the questions on which their first passages differ. */
export interface GroupArms {
  x: string;
  y: string;
  /** Per question: its text and each arm's first passage. */
  questions: Array<{ query: string; x: ShownPassage; y: ShownPassage }>;
}

export interface GroupScenario {
  /** Honest readers, each preferring X in a share `preference` of their rounds (at random). */
  honest: number;
  preference: number;
  /** Accounts of one person, each voting Y in every round. */
  accounts: number;
  /** Rounds each reader and account plays (below the daily bound: all count). */
  roundsPerReader: number;
  seed: number;
}

export interface GroupOutcome {
  honest: number;
  accounts: number;
  separation: Leaderboard['separation'] | null;
  /** Whether Y was called ahead: the harm the rules must prevent. */
  yCalledAhead: boolean;
  /** Whether X was called ahead. */
  xFound: boolean;
}

/**
 * Honest readers who prefer X, then a group of accounts of one person voting Y, played through
 * `save` (the vote service: receipts checked) into `db`, read by the statistics /api/stats uses.
 */
export async function simulateGroup(
  db: Db,
  arms: GroupArms,
  scenario: GroupScenario,
  save: (reader: string, items: FeedbackItem[]) => Promise<unknown>,
  dailyRoundBound: number,
): Promise<GroupOutcome> {
  const random = seededRandom(scenario.seed);
  let n = 0;
  const play = async (reader: string, prefersX: () => boolean) => {
    const items: FeedbackItem[] = [];
    // Each of a reader's rounds on a question of its own (the same round again would count once).
    const start = Math.floor(random() * arms.questions.length);
    for (let i = 0; i < Math.min(scenario.roundsPerReader, arms.questions.length); i++) {
      const q = arms.questions[(start + i) % arms.questions.length]!;
      const receipt = await roundReceipt(db, reader, q.query, [arms.x, arms.y], [q.x.id, q.y.id], Date.now());
      const xWins = prefersX();
      const round = `00000000-0000-4000-9000-${String(++n).padStart(12, '0')}`;
      const side = (label: 'A' | 'B', model: string, passage: ShownPassage, good: boolean): FeedbackItem => ({
        user_type: 'Enthusiast',
        username: reader,
        query: q.query,
        retrieved_text: passage.text,
        model_type: model,
        result_label: label,
        reaction: good ? '👍' : '👎',
        confidence_score: 0,
        round_id: round,
        receipt,
      });
      items.push(side('A', arms.x, q.x, xWins), side('B', arms.y, q.y, !xWins));
    }
    for (let i = 0; i < items.length; i += 50) await save(reader, items.slice(i, i + 50));
  };
  for (let r = 0; r < scenario.honest; r++) await play(`honest-${scenario.seed}-${r}`, () => random() < scenario.preference);
  for (let a = 0; a < scenario.accounts; a++) await play(`group-${scenario.seed}-${a}`, () => false);
  const separation = computeStats(await tallyVotes(db, dailyRoundBound), dailyRoundBound).leaderboard?.separation ?? null;
  return {
    honest: scenario.honest,
    accounts: scenario.accounts,
    separation,
    yCalledAhead: separation?.separated === true && separation.leader === arms.y,
    xFound: separation?.separated === true && separation.leader === arms.x,
  };
}
