import { describe, expect, it } from 'vitest';
import { arenaRules, votesSentence } from '../../src/features/insights/arena-rules.ts';

const none = { repeat: 0, notShown: 0, unknownModel: 0, unchecked: 0, noReceipt: 0, forged: 0, expired: 0, otherReader: 0, notDrawn: 0, notFirst: 0 };
const stats = (votes: number, leftOutVotes = none, overDailyBound = 0) => ({
  votes,
  leftOut: Object.values(leftOutVotes).reduce((n, c) => n + c, 0),
  leftOutVotes,
  dailyRoundBound: 30,
  rounds: { compared: 3, fromDevice: 0, samePassage: 0, oneSided: 0, leftOut: { ...none, overDailyBound } },
});

describe('what Insights says it counted and set aside, in a reader’s words', () => {
  it('states the daily bound', () => {
    expect(arenaRules({ dailyRoundBound: 30 })).toBe(
      'To keep it fair, each reader counts once per search, only for passages the search really showed, and for at most 30 rounds a day.',
    );
    expect(arenaRules({ dailyRoundBound: 1 })).toMatch(/at most 1 round a day/);
  });

  it('says every vote counts when none was set aside', () => {
    expect(votesSentence(stats(6))).toBe('6 votes so far, and all of them count.');
    expect(votesSentence(stats(1))).toBe('1 vote so far, and it counts.');
  });

  it('says how many votes were given, how many count, and why each of the rest was set aside', () => {
    // Issue 43: "3 votes so far … Not counted: 7 votes" read as if 7 were lost.
    expect(votesSentence(stats(3, { ...none, repeat: 5, notShown: 1, unknownModel: 1 }, 4))).toBe(
      'Of 10 votes given, 3 count here. The other 7 are kept but set aside: 5 because the same reader voted again on the same passage' +
        ' (the newest vote counts), 1 for a passage the search did not show for that question and 1 for a search method this site does not run.' +
        ' 4 rounds went past a reader’s limit of 30 a day and are not compared.',
    );
    expect(votesSentence(stats(1, { ...none, unchecked: 1 }))).toBe('Of 2 votes given, 1 counts here. The other 1 is kept but set aside: 1 not yet checked.');
    expect(votesSentence(stats(2, { ...none, forged: 2, notFirst: 1 }))).toBe(
      'Of 5 votes given, 2 count here. The other 3 are kept but set aside: 3 whose search this site could not confirm (an older app, or a search made elsewhere).',
    );
  });
});
