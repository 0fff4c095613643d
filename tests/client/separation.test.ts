import { describe, expect, it } from 'vitest';
import { separationSentence } from '../../src/features/insights/separation.ts';

const top = {
  leader: 'Shared themes',
  runnerUp: 'Words in context',
  difference: 0.3,
  low: -0.1,
  high: 0.7,
  verdict: 'not-yet' as const,
  readers: 40,
  minReaders: 10,
  influential: 4,
  influentialShare: 0.1,
  survivesWithoutInfluential: false,
};

describe('how sure the leaderboard is of its top two, in words', () => {
  it('says when they are told apart', () => {
    expect(separationSentence({ ...top, low: 0.1, separated: true, moreRounds: null })).toBe(
      '“Shared themes” is ahead of “Words in context”, and the 95% range of their difference leaves out zero: the two are told apart.',
    );
  });

  it('says how many more rounds would tell them apart', () => {
    expect(separationSentence({ ...top, separated: false, moreRounds: 1250 })).toBe(
      '“Shared themes” leads “Words in context”, but not yet surely: about 1,250 more rounds would tell them apart, if the difference stays as it is.',
    );
    expect(separationSentence({ ...top, separated: false, moreRounds: 1 })).toContain('about 1 more round would');
  });

  it('says when no difference is seen at all', () => {
    expect(separationSentence({ ...top, difference: 0, separated: false, moreRounds: null })).toBe(
      '“Shared themes” and “Words in context” are level so far: no difference between them is seen yet.',
    );
  });
});
