import { describe, expect, it } from 'vitest';
import { arenaRules, leftOutSentence } from '../../src/features/insights/arena-rules.ts';

const none = { repeat: 0, notShown: 0, unknownModel: 0, unchecked: 0 };
const stats = (leftOutVotes = none, overDailyBound = 0) => ({
  leftOut: Object.values(leftOutVotes).reduce((n, c) => n + c, 0),
  leftOutVotes,
  rounds: { compared: 3, samePassage: 0, oneSided: 0, leftOut: { ...none, overDailyBound } },
});

describe('what Insights says it counted and left out', () => {
  it('states the daily bound', () => {
    expect(arenaRules({ dailyRoundBound: 30 })).toBe(
      'Each reader counts once per search, for the passages the models really showed, and for at most 30 compared searches a day.',
    );
    expect(arenaRules({ dailyRoundBound: 1 })).toMatch(/at most 1 compared search a day/);
  });

  it('says nothing when nothing was left out', () => {
    expect(leftOutSentence(stats())).toBe('');
  });

  it('names each reason that left votes out, and the searches past the bound', () => {
    expect(leftOutSentence(stats({ repeat: 19, notShown: 2, unknownModel: 1, unchecked: 0 }, 4))).toBe(
      'Not counted: 22 votes (19 repeated an earlier vote of the same reader, 2 named a passage its model did not show and 1 named no model this service serves).' +
        ' Left out of the comparison: 4 searches past a reader’s daily bound.',
    );
    expect(leftOutSentence(stats({ ...none, unknownModel: 1 }))).toBe('Not counted: 1 vote (1 named no model this service serves).');
  });
});
