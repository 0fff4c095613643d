import { describe, expect, it } from 'vitest';
import { separationSentence } from '../../src/features/insights/separation.ts';

const top = { leader: 'LSA x', runnerUp: 'SIF y', difference: 0.3, low: -0.1, high: 0.7 };

describe('how sure the leaderboard is of its top two, in words', () => {
  it('says when they are already separated', () => {
    expect(separationSentence({ ...top, low: 0.1, separated: true, moreRounds: null })).toBe(
      'LSA x is ahead of SIF y, and the 95% interval of their difference excludes zero: already separated.',
    );
  });

  it('says how many more decided rounds would separate them', () => {
    expect(separationSentence({ ...top, separated: false, moreRounds: 1250 })).toBe(
      'LSA x leads SIF y, but not yet at 95%: about 1,250 more decided rounds would separate them, if the difference stays as it is.',
    );
    expect(separationSentence({ ...top, separated: false, moreRounds: 1 })).toContain('about 1 more decided round would');
  });

  it('says when no difference is seen at all', () => {
    expect(separationSentence({ ...top, difference: 0, separated: false, moreRounds: null })).toBe(
      'LSA x and SIF y are level so far: no difference between them is seen yet.',
    );
  });
});
