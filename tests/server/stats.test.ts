import { describe, expect, it } from 'vitest';
import { bootstrapBradleyTerry, fitBradleyTerry } from '../../server/stats/bradley-terry.ts';
import { BRADLEY_TERRY_MAX_MODELS, computeStats } from '../../server/stats/model-stats.ts';
import { outcomeForA, pairRounds, type Vote } from '../../server/stats/rounds.ts';
import { wilsonInterval } from '../../server/stats/wilson.ts';

let rounds = 0;
/** Two votes of one round: model `a` shown as A, model `b` as B. */
function round(a: string, ra: Vote['reaction'], b: string, rb: Vote['reaction'], options: { userType?: Vote['user_type']; same?: boolean } = {}): Vote[] {
  const id = `round-${++rounds}`;
  const userType = options.userType ?? 'Enthusiast';
  return [
    { round_id: id, result_label: 'A', model_type: a, reaction: ra, user_type: userType, passage: 'passage one' },
    { round_id: id, result_label: 'B', model_type: b, reaction: rb, user_type: userType, passage: options.same ? 'passage one' : 'passage two' },
  ];
}

describe('Wilson interval', () => {
  it('matches Newcombe’s (1998) worked example: 81 of 263 gives 0.2553 to 0.3662', () => {
    const ci = wilsonInterval(81, 263)!;
    expect(ci.low).toBeCloseTo(0.2553, 4);
    expect(ci.high).toBeCloseTo(0.3662, 4);
  });

  it('stays inside [0, 1] at the extremes, and is undefined with no trials', () => {
    expect(wilsonInterval(0, 10)!.low).toBe(0);
    expect(wilsonInterval(10, 10)!.high).toBeCloseTo(1, 12);
    expect(wilsonInterval(10, 10)!.low).toBeCloseTo(0.7225, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('round pairing', () => {
  it('pairs A and B of a round, ranks 👍 > 🤷 > 👎, and leaves one-sided rounds out', () => {
    const votes = [...round('BGE', '👍', 'UAE', '🤷'), ...round('BGE', '👎', 'UAE', '👎'), ...round('UAE', '🤷', 'BGE', '👍')];
    votes.push({ round_id: 'lonely', result_label: 'A', model_type: 'BGE', reaction: '👍', user_type: 'Ustaz', passage: 'x' });
    const paired = pairRounds(votes);
    expect(paired).toHaveLength(3);
    expect(paired.map(outcomeForA)).toEqual(['win', 'tie', 'loss']);
  });

  it('marks rounds whose two passages were the same', () => {
    expect(pairRounds(round('BGE', '👍', 'UAE', '👎', { same: true }))[0]!.samePassage).toBe(true);
  });
});

describe('computeStats', () => {
  const votes = [
    ...round('BGE', '👍', 'UAE', '🤷'), // BGE wins
    ...round('UAE', '👎', 'BGE', '🤷'), // BGE wins
    ...round('BGE', '🤷', 'UAE', '🤷'), // tie
    ...round('UAE', '👍', 'BGE', '👎', { userType: 'Ustaz' }), // UAE wins
    ...round('BGE', '👍', 'UAE', '👎', { same: true }), // same passage: apart
    { round_id: 'one-sided', result_label: 'A', model_type: 'UAE', reaction: '👍', user_type: 'Ustaz', passage: 'z' } as Vote,
  ];
  const stats = computeStats(votes);
  const bge = stats.models.find((m) => m.model === 'BGE')!;
  const uae = stats.models.find((m) => m.model === 'UAE')!;

  it('counts rounds: compared, same-passage and one-sided', () => {
    expect(stats.votes).toBe(11);
    expect(stats.rounds).toEqual({ compared: 4, samePassage: 1, oneSided: 1 });
  });

  it('counts every vote’s reaction per model, overall and per user type', () => {
    expect(bge.reactions).toMatchObject({ '👍': 2, '🤷': 2, '👎': 1, total: 5 });
    expect(bge.reactions.byUserType.Ustaz).toEqual({ '👍': 0, '🤷': 0, '👎': 1, total: 1 });
    expect(uae.reactions).toMatchObject({ '👍': 2, '🤷': 2, '👎': 2, total: 6 });
  });

  it('gives wins, ties and losses with the win rate over decisive rounds and its Wilson interval', () => {
    expect(bge.comparison).toMatchObject({ wins: 2, ties: 1, losses: 1, winRate: 2 / 3 });
    expect(bge.comparison.interval).toEqual(wilsonInterval(2, 3));
    expect(uae.comparison).toMatchObject({ wins: 1, ties: 1, losses: 2, winRate: 1 / 3 });
    expect(bge.comparison.byUserType.Ustaz).toMatchObject({ wins: 0, ties: 0, losses: 1, winRate: 0 });
    expect(bge.comparison.byUserType.Enthusiast).toMatchObject({ wins: 2, ties: 1, losses: 0, winRate: 1 });
  });

  it('fits Bradley–Terry only when more than two models were compared', () => {
    expect(stats.bradleyTerry).toBeNull();
    const three = computeStats([
      ...round('A1', '👍', 'B1', '👎'),
      ...round('A1', '👍', 'C1', '👎'),
      ...round('B1', '👍', 'C1', '👎'),
      ...round('A1', '🤷', 'B1', '🤷'),
    ]);
    expect(three.bradleyTerry!.map((m) => m.model)).toEqual(['A1', 'B1', 'C1']);
    for (const m of three.bradleyTerry!) expect(m.low).toBeLessThanOrEqual(m.strength + 1e-9);
  });

  it('fits strengths among the most compared models only: made-up model names get their rows but no fit', () => {
    const votes: Vote[] = [];
    for (let i = 0; i < 30; i++) votes.push(...round('LSA', '👍', 'SIF', '🤷'), ...round('SIF', '👍', 'BM25', '👎'), ...round('LSA', '👍', 'BM25', '🤷'));
    // One reader's flood: a thousand rounds, each between two names never seen before.
    for (let i = 0; i < 1000; i++) votes.push(...round(`made-up-${i}-a`, '👍', `made-up-${i}-b`, '👎'));
    const flooded = computeStats(votes);
    expect(flooded.models).toHaveLength(2003);
    expect(flooded.bradleyTerry).toHaveLength(BRADLEY_TERRY_MAX_MODELS);
    expect(flooded.bradleyTerry!.filter((m) => !m.model.startsWith('made-up')).map((m) => m.model)).toEqual(['LSA', 'SIF', 'BM25']);
  });

  it('has nothing to compare with no votes', () => {
    expect(computeStats([])).toEqual({ votes: 0, rounds: { compared: 0, samePassage: 0, oneSided: 0 }, models: [], bradleyTerry: null });
  });
});

describe('Bradley–Terry', () => {
  it('recovers the order of known strengths from many comparisons', () => {
    const comparisons = [];
    // X beats Y 3 of 4, Y beats Z 3 of 4, X beats Z 9 of 10.
    for (let i = 0; i < 40; i++) comparisons.push({ first: 'X', second: 'Y', score: i % 4 === 0 ? 0 : 1 });
    for (let i = 0; i < 40; i++) comparisons.push({ first: 'Y', second: 'Z', score: i % 4 === 0 ? 0 : 1 });
    for (let i = 0; i < 40; i++) comparisons.push({ first: 'X', second: 'Z', score: i % 10 === 0 ? 0 : 1 });
    const s = fitBradleyTerry(['X', 'Y', 'Z'], comparisons);
    expect(s.get('X')! / s.get('Y')!).toBeGreaterThan(2);
    expect(s.get('Y')! / s.get('Z')!).toBeGreaterThan(2);
    const boot = bootstrapBradleyTerry(['X', 'Y', 'Z'], comparisons, 100, 7);
    expect(boot.get('X')!.low).toBeGreaterThan(boot.get('Z')!.high);
  });
});
