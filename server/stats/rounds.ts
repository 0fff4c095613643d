import type { Reaction, ResultLabel, UserType } from '../../contract/vocabulary.ts';

/** A stored vote, as far as the statistics need it. */
export interface Vote {
  round_id: string | null;
  result_label: ResultLabel;
  model_type: string;
  reaction: Reaction;
  user_type: UserType;
  /** Identifies the passage shown (its text, or a hash of it). */
  passage: string;
}

export const REACTION_RANK: Record<Vote['reaction'], number> = { '👍': 2, '🤷': 1, '👎': 0 };

/** One search whose A and B were both rated. */
export interface Round {
  userType: Vote['user_type'];
  a: Vote;
  b: Vote;
  /** Both models returned the same passage: nothing to compare. */
  samePassage: boolean;
}

/** From one model's side: it won, tied or lost its round. */
export type Outcome = 'win' | 'tie' | 'loss';

/**
 * Pairs votes into rounds by round_id. A round needs both labels rated (a one-sided round is
 * left out); if a label was rated twice, its first vote counts.
 */
export function pairRounds(votes: Vote[]): Round[] {
  const byRound = new Map<string, Partial<Record<ResultLabel, Vote>>>();
  for (const vote of votes) {
    if (!vote.round_id) continue;
    const round = byRound.get(vote.round_id) ?? {};
    round[vote.result_label] ??= vote;
    byRound.set(vote.round_id, round);
  }
  const rounds: Round[] = [];
  for (const { A, B } of byRound.values()) {
    if (!A || !B) continue;
    rounds.push({ userType: A.user_type, a: A, b: B, samePassage: A.passage === B.passage });
  }
  return rounds;
}

/** 👍 > 🤷 > 👎, from A's side. */
export function outcomeForA(round: Round): Outcome {
  const difference = REACTION_RANK[round.a.reaction] - REACTION_RANK[round.b.reaction];
  return difference > 0 ? 'win' : difference < 0 ? 'loss' : 'tie';
}
