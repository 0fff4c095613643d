import type { RoundTally } from './rounds.ts';

/**
 * The rounds that compare two models: both labels rated, two different models, two different
 * passages. A round whose two passages were the same is counted apart: it says nothing of which
 * model is better.
 */
export function comparedRounds(rounds: readonly RoundTally[]): RoundTally[] {
  return rounds.filter((r) => !r.samePassage && r.a !== r.b);
}
