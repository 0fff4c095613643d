import type { ComparisonRecord, ModelStats, ReactionCounts, Stats } from '../../../../contract/api-schemas.ts';
import { USER_TYPES, type UserType, type VoteReason } from '../../../../contract/vocabulary.ts';
import { leaderboard, leaderboardAsync } from './leaderboard.ts';

/** computeStats, its leaderboard's bootstrap giving way (`pause`) between resamples. */
export async function computeStatsAsync(tallies: VoteTallies, dailyRoundBound: number, pause: () => Promise<void>): Promise<Stats> {
  return computeStats(tallies, dailyRoundBound, await leaderboardAsync(tallies.rounds, pause));
}
import { flipOutcome, outcomeForA, type Outcome, type RoundTally, type VoteTallies } from './rounds.ts';
import { wilsonInterval } from './wilson.ts';

const emptyCounts = (): ReactionCounts => ({ '👍': 0, '🤷': 0, '👎': 0, total: 0 });

interface Tally {
  wins: number;
  ties: number;
  losses: number;
}

function record({ wins, ties, losses }: Tally): ComparisonRecord {
  const decisive = wins + losses;
  return { wins, ties, losses, winRate: decisive ? wins / decisive : null, interval: wilsonInterval(wins, decisive) };
}

const TALLY_KEY: Record<Outcome, keyof Tally> = { win: 'wins', tie: 'ties', loss: 'losses' };

export { BRADLEY_TERRY_MAX_MODELS } from './leaderboard.ts';

/** Everything /api/stats reports, from the stored votes as the database counted them. */
export function computeStats(tallies: VoteTallies, dailyRoundBound: number, board = leaderboard(tallies.rounds)): Stats {
  const models = [...new Set(tallies.reactions.map((r) => r.model))].sort();
  const compared = tallies.rounds;
  const sum = (rounds: RoundTally[]) => rounds.reduce((n, r) => n + r.count, 0);

  // Per model, and per model and user type: wins, ties and losses.
  const outcomes = new Map<string, Tally>();
  const add = (key: string, outcome: Outcome, count: number) => {
    const tally = outcomes.get(key) ?? { wins: 0, ties: 0, losses: 0 };
    tally[TALLY_KEY[outcome]] += count;
    outcomes.set(key, tally);
  };
  for (const round of compared) {
    const a = outcomeForA(round);
    for (const [model, outcome] of [[round.a, a], [round.b, flipOutcome(a)]] as const) {
      add(model, outcome, round.count);
      add(`${model}\u0000${round.userType}`, outcome, round.count);
    }
  }
  const reactionCounts = new Map<string, ReactionCounts>();
  for (const { model, userType, reaction, count } of tallies.reactions) {
    for (const key of [model, `${model}\u0000${userType}`]) {
      const counts = reactionCounts.get(key) ?? emptyCounts();
      counts[reaction] += count;
      counts.total += count;
      reactionCounts.set(key, counts);
    }
  }
  const none: Tally = { wins: 0, ties: 0, losses: 0 };
  const modelStats = models.map((model): ModelStats => ({
    model,
    reactions: {
      ...(reactionCounts.get(model) ?? emptyCounts()),
      byUserType: Object.fromEntries(USER_TYPES.map((t) => [t, reactionCounts.get(`${model}\u0000${t}`) ?? emptyCounts()])) as Record<UserType, ReactionCounts>,
    },
    comparison: {
      ...record(outcomes.get(model) ?? none),
      byUserType: Object.fromEntries(USER_TYPES.map((t) => [t, record(outcomes.get(`${model}\u0000${t}`) ?? none)])) as Record<UserType, ComparisonRecord>,
    },
  }));

  // The leaderboard's strengths, as earlier clients read them: once more than two models met.
  const bradleyTerry: Stats['bradleyTerry'] =
    board && board.arms.length > 2 ? board.arms.map(({ model, strength, low, high }) => ({ model, strength, low, high })) : null;

  const votesOut = tallies.votesLeftOut;
  const reasons = (out: Record<VoteReason, number>) => ({
    notShown: out['not-shown'],
    unknownModel: out['unknown-model'],
    unchecked: out.unchecked,
    noReceipt: out['no-receipt'],
    forged: out.forged,
    expired: out.expired,
    otherReader: out['other-reader'],
    notDrawn: out['not-drawn'],
    notFirst: out['not-first'],
  });
  const leftOutVotes = { repeat: votesOut.repeat, ...reasons(votesOut) };
  const roundsOut = tallies.roundsLeftOut;
  return {
    votes: tallies.votes,
    leftOut: Object.values(leftOutVotes).reduce((n, count) => n + count, 0),
    leftOutVotes,
    rounds: {
      compared: sum(compared),
      fromDevice: tallies.fromDevice,
      samePassage: roundsOut['same-passage'],
      oneSided: roundsOut['one-sided'],
      leftOut: {
        repeat: roundsOut.repeat,
        overDailyBound: roundsOut['over-daily-bound'],
        ...reasons(roundsOut),
      },
    },
    dailyRoundBound,
    models: modelStats,
    bradleyTerry,
    leaderboard: board,
  };
}
