import type { Leaderboard } from '../../../contract/api-schemas.ts';

/**
 * How sure the leaderboard is of its top two, in a sentence: whether the 95% range of their
 * difference leaves out zero, and if not, about how many more rounds would make it.
 */
export function separationSentence({ leader, runnerUp, separated, moreRounds }: Leaderboard['separation']): string {
  if (separated) return `“${leader}” is ahead of “${runnerUp}”, and the 95% range of their difference leaves out zero: the two are told apart.`;
  if (moreRounds === null) return `“${leader}” and “${runnerUp}” are level so far: no difference between them is seen yet.`;
  const rounds = moreRounds === 1 ? '1 more round' : `${moreRounds.toLocaleString('en')} more rounds`;
  return `“${leader}” leads “${runnerUp}”, but not yet surely: about ${rounds} would tell them apart, if the difference stays as it is.`;
}
