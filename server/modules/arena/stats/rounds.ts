import type { Reaction, RoundLeftOut, UserType, VoteLeftOut } from '../../../../contract/vocabulary.ts';

/** The stored votes as the statistics count them (server/modules/arena/sql/feedback.ts tallies them). */
export interface VoteTallies {
  /** Votes counted: shown by their model, one per reader, question, model and passage. */
  votes: number;
  /** Votes stored but not counted, by why (docs/arena.md). */
  votesLeftOut: Record<VoteLeftOut, number>;
  /** Votes counted per model, user type and reaction. */
  reactions: Array<{ model: string; userType: UserType; reaction: Reaction; count: number }>;
  /**
   * The rounds counted in the comparison, grouped by what they hold: the reader's user type (A's
   * vote), the models shown as A and B and their reactions.
   */
  rounds: RoundTally[];
  /** The rounds left out of the comparison, by why. */
  roundsLeftOut: Record<RoundLeftOut, number>;
  /** Of the compared rounds, those a device drew and answered offline (checked by working them out again). */
  fromDevice: number;
}

export interface RoundTally {
  /** The reader whose rounds these are: readers, not rounds, are the unit of evidence. */
  reader: string;
  userType: UserType;
  a: string;
  b: string;
  aReaction: Reaction;
  bReaction: Reaction;
  count: number;
}

export const REACTION_RANK: Record<Reaction, number> = { '👍': 2, '🤷': 1, '👎': 0 };

/** From one model's side: it won, tied or lost its round. */
export type Outcome = 'win' | 'tie' | 'loss';

/** 👍 > 🤷 > 👎, from A's side. */
export function outcomeForA(round: Pick<RoundTally, 'aReaction' | 'bReaction'>): Outcome {
  const difference = REACTION_RANK[round.aReaction] - REACTION_RANK[round.bReaction];
  return difference > 0 ? 'win' : difference < 0 ? 'loss' : 'tie';
}

/** The same round's outcome from the other model's side. */
export function flipOutcome(o: Outcome): Outcome {
  return o === 'win' ? 'loss' : o === 'loss' ? 'win' : 'tie';
}
