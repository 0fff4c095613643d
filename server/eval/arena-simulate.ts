import { parseArgs } from 'node:util';
import type { FeedbackItem } from '../../contract/api-schemas.ts';
import { ShownCheck } from '../modules/arena/index.ts';
import { groupScenario } from './arena-group-report.ts';
import { DEFAULT_SIMULATION, simulateArena, type Checkpoint, type SimulatedArm } from './arena-simulation.ts';
import { VoteCheck, VoteService } from '../modules/arena/index.ts';
import { terminalProgress } from '../platform/util/progress.ts';
import { loadConfig } from '../platform/config/config.ts';
import { servableModelTypes } from '../modules/search/index.ts';
import { loadQuestions } from './evaluate.ts';
import { startRetrieval } from '../modules/search/index.ts';
import { openEmbeddedDb } from '../platform/store/db.ts';
import { migrate } from '../platform/store/migrate.ts';

const USAGE =
  'Usage: npm run arena:simulate -- [--rounds 3000] [--seed 1] [--flip 0.15] [--shrug 0.1] [--part all|dev|test]\n' +
  '       npm run arena:simulate -- --scenario group [--honest 10] [--accounts 6] [--preference 0.6] [--seed 1]';

class UsageError extends Error {}

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        rounds: { type: 'string', default: '3000' },
        seed: { type: 'string', default: '1' },
        flip: { type: 'string', default: String(DEFAULT_SIMULATION.flip) },
        shrug: { type: 'string', default: String(DEFAULT_SIMULATION.shrug) },
        part: { type: 'string', default: 'all' },
        scenario: { type: 'string', default: 'rounds' },
        honest: { type: 'string', default: '10' },
        accounts: { type: 'string', default: '6' },
        preference: { type: 'string', default: '0.6' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const whole = (name: string, raw: string, min: number, max: number) => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return Number(raw);
  };
  const share = (name: string, raw: string) => {
    const value = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(raw) ? Number(raw) : NaN;
    if (Number.isNaN(value)) throw new UsageError(`--${name} must be a share from 0 to 1 (got "${raw}")`);
    return value;
  };
  if (!['all', 'dev', 'test'].includes(values.part)) throw new UsageError(`--part must be all, dev or test (got "${values.part}")`);
  if (!['rounds', 'group'].includes(values.scenario)) throw new UsageError(`--scenario must be rounds or group (got "${values.scenario}")`);
  return {
    rounds: whole('rounds', values.rounds, 1, 1_000_000),
    seed: whole('seed', values.seed, 0, 2 ** 32 - 1),
    flip: share('flip', values.flip),
    shrug: share('shrug', values.shrug),
    part: values.part as 'all' | 'dev' | 'test',
    scenario: values.scenario as 'rounds' | 'group',
    honest: whole('honest', values.honest, 1, 10_000),
    accounts: whole('accounts', values.accounts, 0, 1_000),
    preference: share('preference', values.preference),
  };
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** An arm's name in the tables: its family marker (BM25, LSA, SIF, BGE, UAE). */
const short = (modelType: string) => modelType.split(' ')[0]!;

function row(c: Checkpoint): string {
  const board = c.leaderboard;
  const arms = board ? board.arms.map((a) => `${short(a.model)} ${a.strength.toFixed(2)} (${a.low.toFixed(2)}–${a.high.toFixed(2)})`).join(', ') : '—';
  const top = board ? (board.separation.separated ? 'separated' : board.separation.moreRounds === null ? 'level' : `~${board.separation.moreRounds} more`) : '—';
  return `| ${c.rounds} | ${c.decided} | ${arms} | ${c.recovered ? 'yes' : 'no'} | ${top} |`;
}

/** npm run arena:simulate: readers voting from the evaluation's gold quotes, through the real statistics. */
async function main(): Promise<void> {
  const settings = options();
  const config = loadConfig();
  const questions = (await loadQuestions()).filter((q) => settings.part === 'all' || q.part === settings.part);
  const engine = await startRetrieval(config, { info: () => undefined, warn: console.warn, error: console.error }, terminalProgress);
  const arms: SimulatedArm[] = [];
  for (const arm of engine.pool()) {
    const firsts = [];
    for (const q of questions) {
      const [first] = await engine.search(q.query, 1, arm.id);
      firsts.push(first ? { id: first.id, text: first.text } : null);
    }
    arms.push({ modelType: arm.modelType, firsts });
  }
  // The votes live in an in-memory PGlite, migrated as the server's store is, for this run only,
  // and are saved as /api/save saves them: each checked against what its model shows.
  const db = await openEmbeddedDb();
  try {
    await migrate(db);
    // The simulated readers have no sessions to check.
    const votes = new VoteService({ db, check: new VoteCheck(db, new ShownCheck(engine, servableModelTypes(config)), engine), voteRateLimit: 0, now: Date.now });
    const save = (reader: string, items: FeedbackItem[]) => votes.save(reader, items, null);
    if (settings.scenario === 'group') {
      await groupScenario(db, arms, questions, settings, save, config.dailyRoundBound);
      return;
    }
    const checkpoints: number[] = [];
    for (let n = 25; n < settings.rounds; n *= 2) checkpoints.push(n);
    checkpoints.push(settings.rounds);
    console.log(
      `\nArena simulation: ${arms.length} arms (${arms.map((a) => short(a.modelType)).join(', ')}), ${questions.length} questions (${settings.part}), ` +
        `seed ${settings.seed}; readers vote 👍 for a passage holding a gold quote, 👎 otherwise, 🤷 ${Math.round(settings.shrug * 100)}% of the time, ` +
        `${Math.round(settings.flip * 100)}% of votes flipped at random.\n`,
    );
    console.log('| rounds | decided | leaderboard: strength (95% interval), strongest first | true order? | top two |');
    console.log('|---|---|---|---|---|');
    const report = await simulateArena(db, {
      ...DEFAULT_SIMULATION,
      ...settings,
      dailyRoundBound: config.dailyRoundBound,
      save,
      arms,
      questions,
      checkpoints,
      onCheckpoint: (c) => console.log(row(c)),
    });
    console.log(`\nTrue order (hit@1 on these questions): ${report.trueOrder.map((arm) => `${short(arm)} ${report.hitAt1.get(arm)!.toFixed(2)}`).join(' > ')}.`);
    console.log(
      report.recoveredFrom === null
        ? `The leaderboard had not settled on the true order after ${settings.rounds} rounds.`
        : `The leaderboard had the true order from ${report.recoveredFrom} rounds on, at every checkpoint after.`,
    );
    console.log(
      report.separatedFrom === null
        ? `The top arm was not separated from the runner-up at 95% after ${settings.rounds} rounds.`
        : `The top arm (${short(report.trueOrder[0]!)}) was separated from the runner-up at 95% from ${report.separatedFrom} rounds on.`,
    );
    console.log('\nPairs: how often only one arm of the two shows a passage holding a gold quote (what readers reward), and when the leaderboard told them apart (their 95% intervals apart, for good):');
    for (const p of report.pairs) {
      const when = p.apartFrom === null ? `not by ${settings.rounds} rounds` : `from ${p.apartFrom} rounds on`;
      console.log(`- ${short(p.better)} over ${short(p.worse)}: ${percent(p.onlyBetter)} against ${percent(p.onlyWorse)} of the questions; apart ${when}.`);
    }
    const last = report.checkpoints.at(-1)?.leaderboard?.separation;
    if (last) {
      const { leader, runnerUp, difference, low, high } = last;
      console.log(`At the end: ${short(leader)} over ${short(runnerUp)} by ${difference.toFixed(2)} in log strength (95% interval ${low.toFixed(2)} to ${high.toFixed(2)}).`);
    }
    console.log(`${report.unanswered} of ${settings.rounds} rounds had an arm that found no passage (one passage shown, no comparison).`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
