import { bootstrapBradleyTerry, type Comparison } from './bradley-terry.ts';
import { outcomeForA, pairRounds, type Outcome, type Round, type Vote } from './rounds.ts';
import { wilsonInterval } from './wilson.ts';

export const USER_TYPES = ['Enthusiast', 'Ustaz'] as const;
type UserType = (typeof USER_TYPES)[number];

export interface ReactionCounts {
  '👍': number;
  '🤷': number;
  '👎': number;
  total: number;
}

export interface Record3 {
  wins: number;
  ties: number;
  losses: number;
  /** wins / (wins + losses): ties say neither model was better. Null with no decisive round. */
  winRate: number | null;
  /** 95% Wilson interval of winRate. */
  interval: { low: number; high: number } | null;
}

export interface ModelStats {
  model: string;
  reactions: ReactionCounts & { byUserType: Record<UserType, ReactionCounts> };
  comparison: Record3 & { byUserType: Record<UserType, Record3> };
}

export interface Stats {
  votes: number;
  rounds: { compared: number; samePassage: number; oneSided: number };
  models: ModelStats[];
  /** Only when more than two models appear in compared rounds. */
  bradleyTerry: Array<{ model: string; strength: number; low: number; high: number }> | null;
}

const emptyCounts = (): ReactionCounts => ({ '👍': 0, '🤷': 0, '👎': 0, total: 0 });

function record(outcomes: Outcome[]): Record3 {
  const wins = outcomes.filter((o) => o === 'win').length;
  const losses = outcomes.filter((o) => o === 'loss').length;
  const ties = outcomes.length - wins - losses;
  const decisive = wins + losses;
  return { wins, ties, losses, winRate: decisive ? wins / decisive : null, interval: wilsonInterval(wins, decisive) };
}

const flip = (o: Outcome): Outcome => (o === 'win' ? 'loss' : o === 'loss' ? 'win' : 'tie');

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

  const modelStats = models.map((model): ModelStats => {
    const mine = votes.filter((v) => v.model_type === model);
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
        ) as Record<UserType, Record3>,
      },
    };
  });

  const comparedModels = [...new Set(compared.flatMap((r) => [r.a.model_type, r.b.model_type]))].sort();
  let bradleyTerry: Stats['bradleyTerry'] = null;
  if (comparedModels.length > 2) {
    const comparisons: Comparison[] = compared.map((r: Round) => {
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
