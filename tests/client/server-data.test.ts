import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestServerData } from '../../src/lib/api/server-data.ts';

/** A loader whose requests the test answers: each call is one request sent, with its signal. */
function heldLoader() {
  const sent: Array<{ signal: AbortSignal; answer(value: string): void }> = [];
  const load = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      sent.push({ signal, answer: resolve });
      signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  return { sent, load };
}

describe('server data asked for from an event (a search)', () => {
  let key = '';
  beforeEach(() => {
    // Only the clock is made up: how long a request has been under way.
    vi.useFakeTimers({ toFake: ['Date'] });
    key = `POST /search ${Math.random()}`;
  });
  afterEach(() => vi.useRealTimers());

  it('sends one request for a key asked again while it loads, and both asks get its answer', async () => {
    const { sent, load } = heldLoader();
    const first = requestServerData(key, load, { stalledAfterMs: 3_000 });
    vi.advanceTimersByTime(2_999);
    const second = requestServerData(key, load, { stalledAfterMs: 3_000 });
    expect(sent).toHaveLength(1);
    sent[0]!.answer('passages');
    expect(await first).toEqual({ ok: true, value: 'passages' });
    expect(await second).toEqual({ ok: true, value: 'passages' });
  });

  it('takes a request unanswered for the whole wait as stalled: aborts it and sends the key again', async () => {
    const { sent, load } = heldLoader();
    const stalled = requestServerData(key, load, { stalledAfterMs: 3_000 });
    vi.advanceTimersByTime(3_000);
    const again = requestServerData(key, load, { stalledAfterMs: 3_000 });
    expect(sent).toHaveLength(2);
    expect(sent[0]!.signal.aborted).toBe(true);
    expect(sent[1]!.signal.aborted).toBe(false);
    expect((await stalled).ok).toBe(false);
    sent[1]!.answer('passages');
    expect(await again).toEqual({ ok: true, value: 'passages' });
  });

  it('asks the server afresh once the answer has arrived', async () => {
    const { sent, load } = heldLoader();
    const first = requestServerData(key, load, { stalledAfterMs: 3_000 });
    sent[0]!.answer('first passages');
    await first;
    const second = requestServerData(key, load, { stalledAfterMs: 3_000 });
    expect(sent).toHaveLength(2);
    sent[1]!.answer('second passages');
    expect(await second).toEqual({ ok: true, value: 'second passages' });
  });

  it('leaves a request for another key under way, and gives a failure as a value', async () => {
    const { sent, load } = heldLoader();
    const mirror = requestServerData(`${key} mirror`, load, { stalledAfterMs: 3_000 });
    const lamp = requestServerData(`${key} lamp`, () => Promise.reject(new Error('Search failed')), { stalledAfterMs: 3_000 });
    expect(await lamp).toEqual({ ok: false, error: new Error('Search failed') });
    expect(sent[0]!.signal.aborted).toBe(false);
    sent[0]!.answer('passages');
    expect(await mirror).toEqual({ ok: true, value: 'passages' });
  });
});
