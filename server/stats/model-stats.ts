import type { ComparisonRecord, ModelStats, ReactionCounts, Stats } from '../../contract/api-schemas.ts';
import { USER_TYPES, type UserType } from '../../contract/vocabulary.ts';
import { bootstrapBradleyTerry, type Comparison } from './bradley-terry.ts';
import { comparedRounds } from './leaderboard.ts';
import { outcomeForA, type Outcome, type RoundTally, type VoteTallies } from './rounds.ts';
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

const flip = (o: Outcome): Outcome => (o === 'win' ? 'loss' : o === 'loss' ? 'win' : 'tie');
const TALLY_KEY: Record<Outcome, keyof Tally> = { win: 'wins', tie: 'ties', loss: 'losses' };

/**
 * The strengths are fitted among the models in the most compared rounds, at most this many: a
 * deployment compares a handful, and a model name is whatever a client sent, so thousands of
 * made-up names must not cost thousands of fitted strengths (a bootstrap of 200 fits each).
 */
export const BRADLEY_TERRY_MAX_MODELS = 12;

/** The models in the most compared rounds (ties by name), at most `max`, sorted by name. */
function mostCompared(compared: RoundTally[], max: number): string[] {
  const rounds = new Map<string, number>();
  for (const r of compared) for (const m of [r.a, r.b]) rounds.set(m, (rounds.get(m) ?? 0) + r.count);
  return [...rounds]
    .sort(([m1, n1], [m2, n2]) => n2 - n1 || (m1 < m2 ? -1 : 1))
    .slice(0, max)
    .map(([m]) => m)
    .sort();
}

/** Everything /api/stats reports, from the stored votes as the database counted them. */
export function computeStats(tallies: VoteTallies): Stats {
  const models = [...new Set(tallies.reactions.map((r) => r.model))].sort();
  const compared = comparedRounds(tallies.rounds);
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
    for (const [model, outcome] of [[round.a, a], [round.b, flip(a)]] as const) {
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

  const comparedModels = mostCompared(compared, BRADLEY_TERRY_MAX_MODELS);
  const among = new Set(comparedModels);
  let bradleyTerry: Stats['bradleyTerry'] = null;
  if (comparedModels.length > 2) {
    // One comparison per round, each group's rounds sharing one object.
    const comparisons: Comparison[] = [];
    for (const r of compared) {
      if (!among.has(r.a) || !among.has(r.b)) continue;
      const o = outcomeForA(r);
      const comparison = { first: r.a, second: r.b, score: o === 'win' ? 1 : o === 'tie' ? 0.5 : 0 };
      for (let i = 0; i < r.count; i++) comparisons.push(comparison);
    }
    bradleyTerry = [...bootstrapBradleyTerry(comparedModels, comparisons)]
      .map(([model, s]) => ({ model, ...s }))
      .sort((x, y) => y.strength - x.strength);
  }

  return {
    votes: tallies.votes,
    leftOut: tallies.leftOut,
    rounds: { compared: sum(compared), samePassage: sum(tallies.rounds.filter((r) => r.samePassage)), oneSided: tallies.oneSided },
    models: modelStats,
    bradleyTerry,
  };
}
