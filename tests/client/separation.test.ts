import { describe, expect, it } from 'vitest';
import { readersSentence, separationSentence } from '../../src/features/insights/separation.ts';

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

  it('does not call a lead too few readers stand behind level', () => {
    expect(separationSentence({ ...top, low: 0.1, separated: false, verdict: 'too-few-readers', readers: 6, moreRounds: null })).toBe(
      '“Shared themes” leads “Words in context”, and the 95% range of their difference leaves out zero, but not on enough readers yet: the two are not told apart.',
    );
  });
});

describe('how many readers stand behind the verdict, in words', () => {
  it('says how many readers back a lead that holds', () => {
    expect(readersSentence({ ...top, verdict: 'separated', survivesWithoutInfluential: true })).toBe(
      '40 readers stand behind this, and it holds even without the 4 readers who pushed it most.',
    );
  });

  it('says when too few readers stand behind a lead, or a few readers carry it', () => {
    expect(readersSentence({ ...top, verdict: 'too-few-readers', readers: 6 })).toBe(
      'Only 6 readers have compared these two so far: at least 10 are needed before one is named ahead.',
    );
    expect(readersSentence({ ...top, verdict: 'carried-by-few' })).toBe(
      '40 readers have compared these two, but 4 readers carry most of the lead: without them it is not clear, so neither is named ahead yet.',
    );
  });

  it('says how many have compared them when nothing is told yet, and nothing for a server that does not say', () => {
    expect(readersSentence({ ...top, readers: 1 })).toBe('1 reader has compared these two so far.');
    expect(readersSentence({})).toBe('');
  });
});
