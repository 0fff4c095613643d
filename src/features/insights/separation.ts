import type { Leaderboard } from '../../../contract/api-schemas.ts';

/**
 * How sure the leaderboard is of its top two, in a sentence: whether the 95% range of their
 * difference leaves out zero, and if not, about how many more rounds would make it (or, when it
 * does but too few readers stand behind it, that readersSentence says why).
 */
export function separationSentence({ leader, runnerUp, separated, moreRounds, verdict }: Leaderboard['separation']): string {
  if (separated) return `“${leader}” is ahead of “${runnerUp}”, and the 95% range of their difference leaves out zero: the two are told apart.`;
  if (verdict === 'too-few-readers' || verdict === 'carried-by-few') {
    return `“${leader}” leads “${runnerUp}”, and the 95% range of their difference leaves out zero, but not on enough readers yet: the two are not told apart.`;
  }
  if (moreRounds === null) return `“${leader}” and “${runnerUp}” are level so far: no difference between them is seen yet.`;
  const rounds = moreRounds === 1 ? '1 more round' : `${moreRounds.toLocaleString('en')} more rounds`;
  return `“${leader}” leads “${runnerUp}”, but not yet surely: about ${rounds} would tell them apart, if the difference stays as it is.`;
}

const people = (n: number) => (n === 1 ? '1 reader' : `${n.toLocaleString('en')} readers`);
const have = (n: number) => (n === 1 ? 'has' : 'have');

/**
 * How many readers stand behind the verdict, in a sentence: the leaderboard counts readers, not
 * rounds, as its evidence (docs/arena.md), and names one method ahead only when at least
 * `minReaders` readers have compared the two and the lead holds without the few who pushed it
 * most. Empty from a server that does not report readers.
 */
export function readersSentence({ verdict, readers, minReaders, influential }: Partial<Leaderboard['separation']>): string {
  if (verdict === undefined || readers === undefined) return '';
  if (verdict === 'separated') {
    return `${people(readers)} ${readers === 1 ? 'stands' : 'stand'} behind this, and it holds even without the ${people(influential ?? 0)} who pushed it most.`;
  }
  if (verdict === 'too-few-readers') {
    return `Only ${people(readers)} ${have(readers)} compared these two so far: at least ${minReaders ?? 0} are needed before one is named ahead.`;
  }
  if (verdict === 'carried-by-few') {
    return `${people(readers)} ${have(readers)} compared these two, but ${people(influential ?? 0)} carry most of the lead: without them it is not clear, so neither is named ahead yet.`;
  }
  return `${people(readers)} ${have(readers)} compared these two so far.`;
}
