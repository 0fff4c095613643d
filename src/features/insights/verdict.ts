import type { Leaderboard, Stats } from './stats-api.ts';
import { armWords } from '../../lib/arms.ts';
import { count } from '../../lib/count.ts';

/**
 * Below this many rounds an arm gets no bar and no percentage, only its plain counts. At 30
 * rounds one more round moves a share by about 3 points and the share's 95% range is still about
 * ±17 points wide; with fewer, a bar of 100% from one or two rounds looks far surer than it is.
 */
export const MIN_ROUNDS_FOR_SHARE = 30;

/** A figure as a reader says it: exact below 10, to the nearest 5 below 100, else to one significant figure. */
export function roughly(n: number): string {
  if (n < 10) return String(n);
  if (n < 100) return String(Math.round(n / 5) * 5);
  const scale = 10 ** Math.floor(Math.log10(n));
  return (Math.round(n / scale) * scale).toLocaleString('en');
}

/**
 * More rounds than this (and more than ten times those so far) are no longer a wait: the two are
 * so even that readers will not tell them apart soon (docs/arena-pool.md: near zero the estimate
 * runs into the millions).
 */
const TOO_CLOSE = 10_000;

/**
 * The page's verdict in one plain sentence: who serves readers best, or that it is too early to
 * say and about how many more rounds would tell, from what /api/stats reports (rounds, the
 * separation of the top two and its estimate of the rounds still needed).
 */
export function verdictSentence(stats: Pick<Stats, 'votes' | 'rounds' | 'leaderboard'>): string {
  const board = stats.leaderboard;
  if (stats.votes === 0) return 'Too early to say: no votes yet.';
  if (!board) return 'Too early to say: no search has had both its passages rated yet.';
  const rounds = count(board.rounds, 'round', 'rounds');
  const { leader, runnerUp, separated, moreRounds } = board.separation;
  const first = armWords(leader).name;
  const second = armWords(runnerUp).name;
  if (separated) return `“${first}” serves readers best so far: over ${rounds} it is clearly ahead of “${second}”.`;
  // Ahead on the figures, but on too few readers, or carried by a few of them (the slot below says which).
  const verdict = board.separation.verdict;
  if (verdict === 'too-few-readers' || verdict === 'carried-by-few') return `Too early to say: after ${rounds}, “${first}” leads “${second}”, but not yet on enough readers.`;
  if (moreRounds === null) return `Too close to call: after ${rounds}, “${first}” and “${second}” are level.`;
  if (moreRounds > TOO_CLOSE && moreRounds > 10 * board.rounds) {
    return `Too close to call: ${rounds} so far, and “${first}” and “${second}” are so even that thousands more might not tell them apart.`;
  }
  return `Too early to say: ${rounds} so far; about ${roughly(moreRounds)} more would tell.`;
}

export interface RankedArm {
  arm: Leaderboard['arms'][number];
  /** "1", "2", or "=1" for arms that share the place. */
  rank: string;
}

/**
 * Places on the leaderboard, arms the figures cannot tell apart sharing one ("=1", "=1", "3"):
 * arms whose strengths are equal as shown (two decimals), and the top two while they are not yet
 * separated, as the verdict says it is too early to name one of them first.
 */
export function rankArms(board: Pick<Leaderboard, 'arms' | 'separation'>): RankedArm[] {
  const { arms, separation } = board;
  const starts: number[] = [];
  arms.forEach((arm, i) => {
    const tied = i > 0 && (Math.abs(arm.strength - arms[i - 1]!.strength) < 0.005 || (i === 1 && !separation.separated));
    starts.push(tied ? starts[i - 1]! : i);
  });
  return arms.map((arm, i) => {
    const start = starts[i]!;
    const shared = starts.filter((s) => s === start).length > 1;
    return { arm, rank: `${shared ? '=' : ''}${start + 1}` };
  });
}
