import type { FeedbackItem } from '../../contract/api-schemas.ts';
import type { Db } from '../platform/store/db.ts';
import type { EvalQuestion } from './metrics.ts';
import type { SimulatedArm } from './arena-simulation.ts';
import { simulateGroup, type GroupArms } from './arena-group-simulation.ts';
import { deleteFeedbackBefore } from '../modules/arena/index.ts';

const short = (modelType: string) => modelType.split(' ')[0]!;

/**
 * npm run arena:simulate -- --scenario group: honest readers prefer X (LSA) over Y (SIF) in a
 * share of their rounds; then 0, 1, 2, ... accounts of one person vote Y in every round. Prints
 * what the leaderboard says of the two at each step, and fails (exit 1) if Y is ever called ahead.
 */
export async function groupScenario(
  db: Db,
  arms: SimulatedArm[],
  questions: EvalQuestion[],
  settings: { honest: number; accounts: number; preference: number; seed: number },
  save: (reader: string, items: FeedbackItem[]) => Promise<unknown>,
  dailyRoundBound: number,
): Promise<void> {
  const [x, y] = [arms.find((a) => a.modelType.startsWith('LSA')) ?? arms[0]!, arms.find((a) => a.modelType.startsWith('SIF')) ?? arms[1]!];
  const pair: GroupArms = {
    x: x.modelType,
    y: y.modelType,
    questions: questions.flatMap((q, i) => (x.firsts[i] && y.firsts[i] && x.firsts[i]!.id !== y.firsts[i]!.id ? [{ query: q.query, x: x.firsts[i]!, y: y.firsts[i]! }] : [])),
  };
  const rounds = Math.min(30, dailyRoundBound, pair.questions.length);
  console.log(
    `\nA group of accounts: ${settings.honest} honest readers prefer ${short(pair.x)} over ${short(pair.y)} in ${Math.round(settings.preference * 100)}% of their rounds ` +
      `(${rounds} rounds each, ${pair.questions.length} questions where the two differ); then accounts of one person vote ${short(pair.y)} in all of theirs.\n`,
  );
  console.log('| honest | accounts | leader | difference (95%) | readers | verdict |');
  console.log('|---|---|---|---|---|---|');
  let harmed = false;
  for (const honest of [...new Set([settings.honest, settings.honest * 2, settings.honest * 4])]) {
    for (let accounts = 0; accounts <= settings.accounts; accounts++) {
      // Every vote of the step before deleted as retention deletes votes, its tallies with it.
      await deleteFeedbackBefore(db, new Date(Date.UTC(9999, 0, 1)), dailyRoundBound);
      const outcome = await simulateGroup(db, pair, { honest, accounts, preference: settings.preference, roundsPerReader: rounds, seed: settings.seed }, save, dailyRoundBound);
      const s = outcome.separation;
      harmed ||= outcome.yCalledAhead;
      console.log(
        s
          ? `| ${honest} | ${accounts} | ${short(s.leader)} | ${s.difference.toFixed(2)} (${s.low.toFixed(2)} to ${s.high.toFixed(2)}) | ${s.readers} | ${s.verdict} |`
          : `| ${honest} | ${accounts} | — | — | — | — |`,
      );
    }
  }
  console.log(harmed ? `\n${short(pair.y)} was called ahead: the group decided the verdict.` : `\n${short(pair.y)} was never called ahead.`);
  if (harmed) process.exitCode = 1;
}
