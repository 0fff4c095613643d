import type { Reaction, UserType } from '../../contract/vocabulary.ts';

/** The stored votes as the statistics count them (server/store/feedback.ts tallies them). */
export interface VoteTallies {
  /** Votes for the models some instance served. */
  votes: number;
  /** Votes naming any other model (made up, or `unknown`): stored, but not counted. */
  leftOut: number;
  /** Rounds with a vote on one label only: left out of the comparison. */
  oneSided: number;
  /** Votes per model, user type and reaction. */
  reactions: Array<{ model: string; userType: UserType; reaction: Reaction; count: number }>;
  /**
   * Rounds with both labels rated (each label's first vote), grouped by what they hold: the
   * reader's user type (A's vote), the models shown as A and B, their reactions, and whether
   * both showed the same passage (then there is nothing to compare).
   */
  rounds: RoundTally[];
}

export interface RoundTally {
  userType: UserType;
  a: string;
  b: string;
  aReaction: Reaction;
  bReaction: Reaction;
  samePassage: boolean;
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
