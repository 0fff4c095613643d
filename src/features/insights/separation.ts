import type { Leaderboard } from '../../../contract/api-schemas.ts';

/**
 * How sure the leaderboard is of its top two, in a sentence: whether the 95% interval of their
 * difference excludes zero, and if not, about how many more decided rounds would make it.
 */
export function separationSentence({ leader, runnerUp, separated, moreRounds }: Leaderboard['separation']): string {
  if (separated) return `${leader} is ahead of ${runnerUp}, and the 95% interval of their difference excludes zero: already separated.`;
  if (moreRounds === null) return `${leader} and ${runnerUp} are level so far: no difference between them is seen yet.`;
  const rounds = moreRounds === 1 ? '1 more decided round' : `${moreRounds.toLocaleString('en')} more decided rounds`;
  return `${leader} leads ${runnerUp}, but not yet at 95%: about ${rounds} would separate them, if the difference stays as it is.`;
}
