import { describe, expect, it } from 'vitest';
import type { Leaderboard } from '../../contract/api-schemas.ts';
import { rankArms, roughly, verdictSentence } from '../../src/features/insights/verdict.ts';

const LSA = 'LSA tfidf-svd-96+lex-256+glove-100-wordnet+thesaurus+gloss';
const SIF = 'SIF ppmi-word-vectors-150+glove-100-wordnet+thesaurus+gloss';
const BM25 = 'BM25 minisearch';
const arm = (model: string, strength: number, rounds = 3) => ({ model, strength, low: strength / 2, high: strength * 2, rounds, readers: rounds });
const board = (separation: Partial<Leaderboard['separation']>, arms = [arm(LSA, 1.4), arm(SIF, 1.2), arm(BM25, 0.6)], rounds = 3): Leaderboard => ({
  rounds,
  arms,
  pairs: [],
  separation: { leader: LSA, runnerUp: SIF, difference: 0.15, low: -1, high: 1.3, separated: false, moreRounds: 437,
    verdict: 'not-yet', readers: 40, minReaders: 10, influential: 4, influentialShare: 0.1, survivesWithoutInfluential: false,
    ...separation },
});
const none = { repeat: 0, notShown: 0, unknownModel: 0, unchecked: 0, noReceipt: 0, forged: 0, expired: 0, otherReader: 0, notDrawn: 0, notFirst: 0 };
const rounds = { compared: 3, fromDevice: 0, samePassage: 0, oneSided: 0, leftOut: { ...none, overDailyBound: 0 } };

describe('the verdict in one plain sentence', () => {
  it('says it is too early, with the rounds so far and about how many more would tell', () => {
    expect(verdictSentence({ votes: 6, rounds, leaderboard: board({}) })).toBe('Too early to say: 3 rounds so far; about 400 more would tell.');
  });

  it('names the methods in a reader’s words, never by their technical id', () => {
    const separated = verdictSentence({ votes: 800, rounds, leaderboard: board({ separated: true, moreRounds: null }, undefined, 400) });
    expect(separated).toBe('“Shared themes” serves readers best so far: over 400 rounds it is clearly ahead of “Words in context”.');
    expect(verdictSentence({ votes: 6, rounds, leaderboard: board({ difference: 0, moreRounds: null }) })).toBe(
      'Too close to call: after 3 rounds, “Shared themes” and “Words in context” are level.',
    );
    for (const sentence of [separated, verdictSentence({ votes: 6, rounds, leaderboard: board({}) })]) expect(sentence).not.toMatch(/tfidf|LSA|SIF/);
  });

  it('does not call a lead level, nor name it, while too few readers stand behind it', () => {
    for (const verdict of ['too-few-readers', 'carried-by-few'] as const) {
      expect(verdictSentence({ votes: 60, rounds, leaderboard: board({ verdict, moreRounds: null }, undefined, 30) })).toBe(
        'Too early to say: after 30 rounds, “Shared themes” leads “Words in context”, but not yet on enough readers.',
      );
    }
  });

  it('says when two are so even that no wait will tell them apart', () => {
    expect(verdictSentence({ votes: 6000, rounds, leaderboard: board({ moreRounds: 1_301_287 }, undefined, 1083) })).toBe(
      'Too close to call: 1083 rounds so far, and “Shared themes” and “Words in context” are so even that thousands more might not tell them apart.',
    );
  });

  it('says it is too early with no votes or no compared round', () => {
    expect(verdictSentence({ votes: 0, rounds, leaderboard: null })).toBe('Too early to say: no votes yet.');
    expect(verdictSentence({ votes: 2, rounds, leaderboard: null })).toBe('Too early to say: no search has had both its passages rated yet.');
  });

  it('rounds figures as a reader says them', () => {
    expect([1, 9, 12, 47, 110, 437, 983, 4151].map(roughly)).toEqual(['1', '9', '10', '45', '100', '400', '1,000', '4,000']);
  });
});

describe('places on the leaderboard', () => {
  it('gives the top two one shared place until they are told apart', () => {
    expect(rankArms(board({})).map((r) => r.rank)).toEqual(['=1', '=1', '3']);
    expect(rankArms(board({ separated: true, moreRounds: null })).map((r) => r.rank)).toEqual(['1', '2', '3']);
  });

  it('gives arms of equal strength one place', () => {
    const tied = board({ separated: true, moreRounds: null }, [arm(LSA, 1.5), arm(SIF, 0.9), arm(BM25, 0.9)]);
    expect(rankArms(tied).map((r) => r.rank)).toEqual(['1', '=2', '=2']);
    const level = board({ difference: 0, moreRounds: null }, [arm(LSA, 1), arm(SIF, 1), arm(BM25, 1)]);
    expect(rankArms(level).map((r) => r.rank)).toEqual(['=1', '=1', '=1']);
  });
});
