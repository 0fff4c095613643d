import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DUE_SLACK_MS, FLUSH_INTERVAL_MS, scheduleFlushes } from '../../src/features/feedback/outbox-sync.ts';
import { useOutboxStatus } from '../../src/features/feedback/outbox-status.ts';

describe('when the page tries a waiting vote again', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    useOutboxStatus.setState({ reader: 'reader', pending: 0, deadLetters: [], nextAttemptAt: null });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tries a vote when its back-off ends, not at the next 15 s check', () => {
    const due = vi.fn();
    const stop = scheduleFlushes({ due, now: () => undefined });
    // A vote backed off for 20 s (after a 429 asking for that, say).
    useOutboxStatus.setState({ pending: 1, nextAttemptAt: Date.now() + 20_000 });
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(due).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(20_000 - FLUSH_INTERVAL_MS + DUE_SLACK_MS - 1);
    expect(due).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(2);
    stop();
  });

  it('leaves a vote already due to the 15 s check: no flush after flush while it cannot go', () => {
    const due = vi.fn();
    const stop = scheduleFlushes({ due, now: () => undefined });
    // Waiting for a fresh token, or for its reader: due, and the flushes leave it as it is.
    for (let i = 0; i < 5; i++) useOutboxStatus.setState({ pending: 1, nextAttemptAt: Date.now() - 1 });
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS - 1);
    expect(due).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(1);
    stop();
  });
});
