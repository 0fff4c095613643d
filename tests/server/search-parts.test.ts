import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreement, firstHitRank, score } from '../../server/eval/metrics.ts';
import { interleave } from '../../common/search/interleave.ts';
import { LruCache } from '../../server/platform/caches/lru-cache.ts';
import { FixedWindowLimiter, StoreLimiter } from '../../server/platform/limits/rate-limit.ts';
import type { Db, Queryable } from '../../server/platform/store/db.ts';
import { openTestDb, type TestDb } from './harness.ts';

describe('interleave', () => {
  it('takes rank 1 of each list, then rank 2 of each, and so on', () => {
    expect(interleave([['a1', 'a2', 'a3'], ['b1', 'b2']])).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
    expect(interleave([[], ['b1']])).toEqual(['b1']);
    expect(interleave([])).toEqual([]);
  });
});

describe('LruCache', () => {
  it('forgets the least recently used entry first', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });
});

describe('FixedWindowLimiter', () => {
  it('allows the limit per window per key, then says when to retry', () => {
    const limiter = new FixedWindowLimiter(2, 60_000);
    expect(limiter.hit('x', 0).allowed).toBe(true);
    expect(limiter.hit('x', 1000).allowed).toBe(true);
    expect(limiter.hit('x', 15_000)).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect(limiter.hit('y', 15_000).allowed).toBe(true);
    expect(limiter.hit('x', 60_000).allowed).toBe(true);
  });

  it('is off at 0', () => {
    const limiter = new FixedWindowLimiter(0);
    for (let i = 0; i < 1000; i++) expect(limiter.hit('x', 0).allowed).toBe(true);
  });
});

describe('StoreLimiter', () => {
  let db: Db;
  let test: TestDb;
  beforeAll(async () => {
    test = await openTestDb('embedded');
    db = test.db;
  });
  afterAll(() => test.drop());

  /** The real store, which can be made to stop answering (as a frozen database does); it counts what it is asked. */
  function holdableStore() {
    const store = { held: false, asked: 0 };
    const queryable: Queryable = {
      query<T>(sql: string, params?: unknown[]) {
        store.asked += 1;
        return store.held ? new Promise<T[]>(() => undefined) : db.query<T>(sql, params);
      },
    };
    return { store, queryable };
  }

  it('counts on its own, at once, while the store does not answer, and asks it again a few seconds later', async () => {
    const { store, queryable } = holdableStore();
    const limiter = new StoreLimiter(queryable, 3, 60_000, 50);
    expect(await limiter.hit('held', 0)).toEqual({ allowed: true });
    store.held = true;
    store.asked = 0;
    // Each search would wait for good on a store that never answers; it waits 50 ms once, then counts alone.
    expect(await limiter.hit('held', 1_000)).toEqual({ allowed: true });
    expect(await limiter.hit('held', 2_000)).toEqual({ allowed: true });
    expect(await limiter.hit('held', 3_000)).toEqual({ allowed: true });
    expect(await limiter.hit('held', 4_000)).toEqual({ allowed: false, retryAfterSeconds: 57 });
    expect(store.asked).toBe(1);
    // A few seconds on, one search asks the store again; those alongside it go on counting here.
    const together = await Promise.all([6_100, 6_101, 6_102].map((at) => limiter.hit('other', at)));
    expect(together).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    expect(store.asked).toBe(2);
    // Once the store answers again, its shared count (one hit so far) is the one that holds.
    store.held = false;
    expect(await limiter.hit('held', 12_000)).toEqual({ allowed: true });
    expect(await limiter.hit('held', 12_001)).toEqual({ allowed: true });
    expect(await limiter.hit('held', 12_002)).toEqual({ allowed: false, retryAfterSeconds: 48 });
    expect(store.asked).toBeGreaterThan(2);
  });
});

describe('evaluation metrics', () => {
  it('finds the first passage holding a gold quote, whatever its spacing, case or quote marks', () => {
    expect(firstHitRank(['nothing here', 'He said “KNOW,   O beloved”'], ['he said "know, o beloved"'])).toBe(2);
    expect(firstHitRank(['nothing'], ['absent'])).toBeNull();
  });

  it('says how alike two models answer: the same first passage, and how much of the top 3 they share', () => {
    const lsa = [['a', 'b', 'c'], ['d', 'e', 'f'], ['g', 'h', 'i'], []];
    const sif = [['a', 'c', 'x'], ['e', 'd', 'f'], ['y', 'z', 'w'], []];
    expect(agreement(lsa, sif)).toEqual({ sameFirst: 0.25, sharedInTop3: (2 + 3 + 0 + 0) / 4 });
    expect(agreement([], [])).toEqual({ sameFirst: 0, sharedInTop3: 0 });
  });

  it('computes hit@1, hit@3 and MRR', () => {
    expect(score([1, 2, null, 4])).toEqual({ questions: 4, hitAt1: 0.25, hitAt3: 0.5, mrr: (1 + 0.5 + 0 + 0.25) / 4 });
  });
});

describe('Vocabulary fallback for words the book never uses', () => {
  it('maps a query stem to book stems sharing all but its last two letters', async () => {
    const { Vocabulary } = await import('../../common/search/bag-of-terms.ts');
    const v = new Vocabulary(new Map([['patient', 0], ['knowledg', 1], ['known', 2], ['love', 3]]));
    expect(v.resolve('patient')).toEqual([0]);
    expect(v.resolve('patienc')).toEqual([0]); // "patience"
    expect(v.resolve('knowledgeabl')).toEqual([1]); // "knowledgeable" finds "knowledge"
    expect(v.resolve('patrol')).toEqual([]); // shares only "pat"
    expect(v.resolve('know')).toEqual([]); // too short to guess
    expect(v.resolve('lover')).toEqual([]);
  });
});
