// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { restartDelay } from '../../scripts/restart-policy.ts';

describe('restarting a crashed cluster instance', () => {
  it('waits 1 s at first, doubles while it keeps crashing, never beyond 30 s', () => {
    const delays: number[] = [];
    let last: number | undefined;
    for (let crash = 0; crash < 8; crash++) delays.push((last = restartDelay(last, 2_000)));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts from 1 s again once the instance stayed up a minute', () => {
    expect(restartDelay(16_000, 59_999)).toBe(30_000);
    expect(restartDelay(16_000, 60_000)).toBe(1_000);
  });
});
