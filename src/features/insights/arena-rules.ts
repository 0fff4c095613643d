import type { Stats } from './stats-api.ts';
import { count } from '../../lib/count.ts';

/** The arena's rules in one sentence, with the reader's daily bound. */
export function arenaRules(stats: Pick<Stats, 'dailyRoundBound'>): string {
  return (
    'To keep it fair, each reader counts once per search, only for passages the search really showed, and for at most ' +
    `${count(stats.dailyRoundBound, 'round', 'rounds')} a day.`
  );
}

/** Votes set aside because their search's receipt did not prove what was shown (docs/arena.md). */
const unproven = (v: Stats['leftOutVotes']): number =>
  (v.noReceipt ?? 0) + (v.forged ?? 0) + (v.expired ?? 0) + (v.otherReader ?? 0) + (v.notDrawn ?? 0) + (v.notFirst ?? 0);

/** A list: "a", "a and b", "a, b and c". */
function list(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * How many votes count, and what became of the rest, by why, in a reader's words; then the rounds
 * past a reader's daily bound. "3 votes so far … Not counted: 7 votes" read as if 7 votes were
 * lost: this says they were given, kept, and set aside, and why.
 */
export function votesSentence(stats: Pick<Stats, 'votes' | 'leftOut' | 'leftOutVotes' | 'rounds' | 'dailyRoundBound'>): string {
  const votes = stats.leftOutVotes;
  const given = stats.votes + stats.leftOut;
  const sentences: string[] = [];
  if (stats.leftOut === 0) {
    sentences.push(given === 1 ? '1 vote so far, and it counts.' : `${given} votes so far, and all of them count.`);
  } else {
    const reasons = [
      votes.repeat && `${votes.repeat} because the same reader voted again on the same passage (the newest vote counts)`,
      votes.notShown && `${votes.notShown} for a passage the search did not show for that question`,
      votes.unknownModel && `${votes.unknownModel} for a search method this site does not run`,
      votes.unchecked && `${votes.unchecked} not yet checked`,
      unproven(votes) && `${unproven(votes)} whose search this site could not confirm (an older app, or a search made elsewhere)`,
    ].filter((part): part is string => Boolean(part));
    sentences.push(
      `Of ${count(given, 'vote', 'votes')} given, ${stats.votes} ${stats.votes === 1 ? 'counts' : 'count'} here. ` +
        `The other ${stats.leftOut} ${stats.leftOut === 1 ? 'is' : 'are'} kept but set aside: ${list(reasons)}.`,
    );
  }
  const over = stats.rounds.leftOut?.overDailyBound ?? 0;
  if (over > 0) {
    sentences.push(`${count(over, 'round', 'rounds')} went past a reader’s limit of ${stats.dailyRoundBound} a day and ${over === 1 ? 'is' : 'are'} not compared.`);
  }
  return sentences.join(' ');
}
