import type { ComparisonRecord, ModelStats, ReactionCounts, Stats } from '../../contract/api-schemas.ts';
import { USER_TYPES, type UserType } from '../../contract/vocabulary.ts';
import { bootstrapBradleyTerry, type Comparison } from './bradley-terry.ts';
import { outcomeForA, pairRounds, type Outcome, type Round, type Vote } from './rounds.ts';
import { wilsonInterval } from './wilson.ts';

const emptyCounts = (): ReactionCounts => ({ '👍': 0, '🤷': 0, '👎': 0, total: 0 });

function record(outcomes: Outcome[]): ComparisonRecord {
  const wins = outcomes.filter((o) => o === 'win').length;
  const losses = outcomes.filter((o) => o === 'loss').length;
  const ties = outcomes.length - wins - losses;
  const decisive = wins + losses;
  return { wins, ties, losses, winRate: decisive ? wins / decisive : null, interval: wilsonInterval(wins, decisive) };
}

const flip = (o: Outcome): Outcome => (o === 'win' ? 'loss' : o === 'loss' ? 'win' : 'tie');

/**
 * The strengths are fitted among the models in the most compared rounds, at most this many: a
 * deployment compares a handful, and a model name is whatever a client sent, so thousands of
 * made-up names must not cost thousands of fitted strengths (a bootstrap of 200 fits each).
 */
export const BRADLEY_TERRY_MAX_MODELS = 12;

/** The models in the most compared rounds (ties by name), at most `max`, sorted by name. */
function mostCompared(compared: Round[], max: number): string[] {
  const rounds = new Map<string, number>();
  for (const r of compared) for (const m of [r.a.model_type, r.b.model_type]) rounds.set(m, (rounds.get(m) ?? 0) + 1);
  return [...rounds]
    .sort(([m1, n1], [m2, n2]) => n2 - n1 || (m1 < m2 ? -1 : 1))
    .slice(0, max)
    .map(([m]) => m)
    .sort();
}

/** Everything /api/stats reports, from the stored votes. */
export function computeStats(votes: Vote[]): Stats {
  const models = [...new Set(votes.map((v) => v.model_type))].sort();
  const rounds = pairRounds(votes);
  const compared = rounds.filter((r) => !r.samePassage && r.a.model_type !== r.b.model_type);
  const pairedIds = new Set(rounds.map((r) => r.a.round_id));
  const oneSided = new Set(votes.filter((v) => v.round_id && !pairedIds.has(v.round_id)).map((v) => v.round_id)).size;

  const outcomes = new Map(models.map((m) => [m, [] as Array<{ userType: UserType; outcome: Outcome }>]));
  for (const round of compared) {
    const a = outcomeForA(round);
    outcomes.get(round.a.model_type)!.push({ userType: round.userType, outcome: a });
    outcomes.get(round.b.model_type)!.push({ userType: round.userType, outcome: flip(a) });
  }

  // Grouped once: a filter per model would cost models × votes, and model names are the client's.
  const votesOf = new Map(models.map((m) => [m, [] as Vote[]]));
  for (const vote of votes) votesOf.get(vote.model_type)!.push(vote);
  const modelStats = models.map((model): ModelStats => {
    const mine = votesOf.get(model)!;
    const count = (subset: Vote[]) =>
      subset.reduce((c, v) => ({ ...c, [v.reaction]: c[v.reaction] + 1, total: c.total + 1 }), emptyCounts());
    const results = outcomes.get(model)!;
    return {
      model,
      reactions: {
        ...count(mine),
        byUserType: Object.fromEntries(USER_TYPES.map((t) => [t, count(mine.filter((v) => v.user_type === t))])) as Record<UserType, ReactionCounts>,
      },
      comparison: {
        ...record(results.map((r) => r.outcome)),
        byUserType: Object.fromEntries(
          USER_TYPES.map((t) => [t, record(results.filter((r) => r.userType === t).map((r) => r.outcome))]),
        ) as Record<UserType, ComparisonRecord>,
      },
    };
  });

  const comparedModels = mostCompared(compared, BRADLEY_TERRY_MAX_MODELS);
  const among = new Set(comparedModels);
  let bradleyTerry: Stats['bradleyTerry'] = null;
  if (comparedModels.length > 2) {
    const comparisons: Comparison[] = compared.filter((r) => among.has(r.a.model_type) && among.has(r.b.model_type)).map((r: Round) => {
      const o = outcomeForA(r);
      return { first: r.a.model_type, second: r.b.model_type, score: o === 'win' ? 1 : o === 'tie' ? 0.5 : 0 };
    });
    bradleyTerry = [...bootstrapBradleyTerry(comparedModels, comparisons)]
      .map(([model, s]) => ({ model, ...s }))
      .sort((x, y) => y.strength - x.strength);
  }

  return {
    votes: votes.length,
    rounds: { compared: compared.length, samePassage: rounds.filter((r) => r.samePassage).length, oneSided },
    models: modelStats,
    bradleyTerry,
  };
}
