import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/api/api-error.ts';
import { NO_ROUND, startRound } from '../../src/features/search/ab-round.ts';
import { searchDone, searchFailed } from '../../src/features/search/use-search.ts';

const r = (model_type: string, text: string) => ({ model_type, text, similarity: 0.5 });
const results = [r('BGE small', 'b1'), r('UAE large', 'u1')];

/** Ids in turn, and the random numbers given. */
function source(randoms: number[]) {
  let n = 0;
  return { newId: () => `round-${++n}`, random: () => randoms.shift() ?? 0.9 };
}

describe('an A/B round', () => {
  it('is made once per arrival of results: its id and its order are fixed then', () => {
    const s = source([0.1, 0.9]);
    const first = startRound('love', results, s);
    expect(first).toEqual({
      id: 'round-1',
      query: 'love',
      pair: [
        { ...results[1], resultLabel: 'A' },
        { ...results[0], resultLabel: 'B' },
      ],
    });
    // The same results arriving again are a new round, with its own id and its own draw.
    const second = startRound('love', results, s);
    expect(second.id).toBe('round-2');
    expect(second.pair.map((p) => [p.resultLabel, p.text])).toEqual([
      ['A', 'b1'],
      ['B', 'u1'],
    ]);
    // Reading a round again (a re-render) changes nothing in it.
    expect(first.pair.map((p) => p.text)).toEqual(['u1', 'b1']);
  });

  it('draws a fresh id from the browser by default', () => {
    const a = startRound('q', results);
    const b = startRound('q', results);
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.id).not.toBe(b.id);
  });
});

describe('the search state as results or an error arrive', () => {
  it('carries the round made for the results', () => {
    const state = searchDone('love', results, source([0.9]));
    expect(state).toMatchObject({ status: 'done', query: 'love', results, error: null });
    expect(state.round.id).toBe('round-1');
    expect(state.round.pair.map((p) => p.resultLabel)).toEqual(['A', 'B']);
  });

  it('has no round on an error, and shows the message, else the fallback', () => {
    expect(searchFailed('love', new ApiError('server', 'Search failed'))).toEqual({
      status: 'error',
      query: 'love',
      results: [],
      error: 'Search failed',
      round: NO_ROUND,
      retryable: true,
    });
    expect(searchFailed('love', new Error('')).error).toBe('Failed to perform search');
    expect(searchFailed('love', 'not an error').error).toBe('Failed to perform search');
  });
});
