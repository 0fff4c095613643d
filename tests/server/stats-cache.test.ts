// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { AnswerCache, CHEAP_MS, MAX_STALE_MS, REUSE_FACTOR } from '../../server/modules/arena/stats/stats-cache.ts';

/** A cache over a counter of computations, with a clock the test moves and a cost per computation. */
function setup(costMs: number) {
  let now = 0;
  let version = 'v1';
  let computations = 0;
  const cache = new AnswerCache(
    async () => {
      computations++;
      now += costMs; // the work takes this long
      return `answer ${computations} of ${version}`;
    },
    async () => version,
    () => now,
  );
  return {
    cache,
    computations: () => computations,
    advance: (ms: number) => (now += ms),
    change: (v: string) => (version = v),
  };
}

describe('the statistics answer cache', () => {
  it('works the answer out once while the votes are unchanged, however often it is asked', async () => {
    const t = setup(2_000);
    expect(await t.cache.get()).toBe('answer 1 of v1');
    t.advance(60_000);
    expect(await t.cache.get()).toBe('answer 1 of v1');
    expect(t.computations()).toBe(1);
  });

  it('counts a new vote at once when the answer is cheap', async () => {
    const t = setup(CHEAP_MS - 1);
    await t.cache.get();
    t.change('v2');
    expect(await t.cache.get()).toBe('answer 2 of v2');
  });

  it('serves a costly answer after a change for ten times its cost, then works it out again', async () => {
    const cost = 180;
    const t = setup(cost);
    await t.cache.get();
    t.change('v2');
    t.advance(REUSE_FACTOR * cost - 1);
    expect(await t.cache.get()).toBe('answer 1 of v1');
    t.advance(1);
    expect(await t.cache.get()).toBe('answer 2 of v2');
    expect(t.computations()).toBe(2);
  });

  it('works a costly answer out again when the clock is set back, and counts a jump forward as a minute at most', async () => {
    const t = setup(1_000);
    await t.cache.get();
    t.change('v2');
    t.advance(-5_000);
    expect(await t.cache.get()).toBe('answer 2 of v2');
    const slow = setup(3_600_000); // an hour "spent" counting: the clock jumped meanwhile
    await slow.cache.get();
    slow.change('v2');
    slow.advance(10 * 60_000);
    expect(await slow.cache.get()).toBe('answer 2 of v2');
  });

  it('serves a very costly answer after a change for 3 s at most, so a new vote shows within seconds', async () => {
    const t = setup(4_300);
    await t.cache.get();
    t.change('v2');
    t.advance(MAX_STALE_MS - 1);
    expect(await t.cache.get()).toBe('answer 1 of v1');
    t.advance(1);
    expect(await t.cache.get()).toBe('answer 2 of v2');
  });

  it('shares one computation among requests that arrive while it runs', async () => {
    const t = setup(10);
    const answers = await Promise.all([t.cache.get(), t.cache.get(), t.cache.get()]);
    expect(answers).toEqual(['answer 1 of v1', 'answer 1 of v1', 'answer 1 of v1']);
    expect(t.computations()).toBe(1);
  });

  it('looks at the votes once for requests that arrive together', async () => {
    let looks = 0;
    const cache = new AnswerCache(
      async () => 'counted',
      async () => {
        looks++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return 'v1';
      },
    );
    await cache.get();
    looks = 0;
    expect(await Promise.all(Array.from({ length: 20 }, () => cache.get()))).toEqual(Array(20).fill('counted'));
    expect(looks).toBe(1);
  });

  it('works it out again after a failed attempt', async () => {
    let fail = true;
    const cache = new AnswerCache(
      async () => {
        if (fail) throw new Error('database gone');
        return 'counted';
      },
      async () => 'v1',
    );
    await expect(cache.get()).rejects.toThrow('database gone');
    fail = false;
    expect(await cache.get()).toBe('counted');
  });
});
