import type { Stats } from './stats-api.ts';
import { count } from '../../lib/count.ts';

/** The arena's rules in one sentence, with the reader's daily bound. */
export function arenaRules(stats: Pick<Stats, 'dailyRoundBound'>): string {
  return (
    'Each reader counts once per search, for the passages the models really showed, and for at most ' +
    `${count(stats.dailyRoundBound, 'compared search', 'compared searches')} a day.`
  );
}

/** A list: "a", "a and b", "a, b and c". */
function list(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * What was stored but not counted, by why, in one sentence; empty when nothing was left out. The
 * votes' reasons first, then the searches left out of the comparison.
 */
export function leftOutSentence(stats: Pick<Stats, 'leftOut' | 'leftOutVotes' | 'rounds'>): string {
  const votes = stats.leftOutVotes;
  const rounds = stats.rounds.leftOut;
  const voteParts = [
    votes.repeat && `${votes.repeat} repeated an earlier vote of the same reader`,
    votes.notShown && `${votes.notShown} named a passage its model did not show`,
    votes.unknownModel && `${votes.unknownModel} named no model this service serves`,
    votes.unchecked && `${votes.unchecked} await a check`,
  ].filter((part): part is string => Boolean(part));
  const roundParts = [
    rounds.overDailyBound && `${count(rounds.overDailyBound, 'search', 'searches')} past a reader’s daily bound`,
  ].filter((part): part is string => Boolean(part));
  const sentences: string[] = [];
  if (stats.leftOut > 0) sentences.push(`Not counted: ${count(stats.leftOut, 'vote', 'votes')} (${list(voteParts)}).`);
  if (roundParts.length) sentences.push(`Left out of the comparison: ${list(roundParts)}.`);
  return sentences.join(' ');
}
