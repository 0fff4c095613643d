import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { ApiError } from '../../src/lib/api/api-error.ts';
import { asksServer, deviceAnswers } from '../../src/features/offline/fallback-rule.ts';
import { searchBook, type DeviceAnswerer } from '../../src/features/offline/search-book.ts';
import type { SearchResult } from '../../src/lib/search-result.ts';
import { searchPassages } from '../../src/features/search/search-api.ts';
import { startStandInPortal } from '../fixtures/stand-in-portal.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

const FROM_DEVICE: SearchResult[] = [{ id: 'ch1-1', text: 'Know then, O man…', model_type: 'LSA x', similarity: 0.5 }];
/** The dashboard's question to the server, as use-search asks it. */
const askFor = (query: string) => (signal: AbortSignal) => searchPassages(query, 'both', signal);

const FROM_SERVER: SearchResult[] = [{ id: 'ch2-3', text: 'The heart is like a mirror…', model_type: 'LSA x', similarity: 0.6 }];

/** The search worker's stand-in: keeps the book or not, and notes what it was asked. */
function device(keepsBook: boolean, fails = false): DeviceAnswerer & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    keepsBook: async () => keepsBook,
    answer: async (query) => {
      asked.push(query);
      if (fails) throw new Error('the pack could not be read');
      return FROM_DEVICE;
    },
  };
}

describe('when the device answers a search', () => {
  it('asks the server first unless the browser knows it is offline and the device keeps the book', () => {
    expect(asksServer(true, true)).toBe(true);
    expect(asksServer(true, false)).toBe(true);
    expect(asksServer(false, false)).toBe(true);
    expect(asksServer(false, true)).toBe(false);
  });

  it('answers when the server is too late, unreachable or cannot serve, never when it refused the question, and only with the book', () => {
    const cases: Array<[Parameters<typeof deviceAnswers>[0], boolean]> = [
      [{ kind: 'too-late' }, true],
      [{ kind: 'failed', error: new ApiError('network', 'Search failed') }, true],
      [{ kind: 'failed', error: new ApiError('server', 'Search is not available on this server', 503) }, true],
      [{ kind: 'failed', error: new ApiError('server', 'Bad gateway', 502) }, true],
      [{ kind: 'failed', error: new ApiError('validation', 'Query must not be empty', 400) }, false],
      [{ kind: 'failed', error: new ApiError('rate-limited', 'Too many searches', 429) }, false],
      [{ kind: 'failed', error: new Error('a bug') }, false],
      [{ kind: 'answered' }, false],
    ];
    for (const [outcome, answers] of cases) {
      expect(deviceAnswers(outcome, true), JSON.stringify(outcome)).toBe(answers);
      expect(deviceAnswers(outcome, false)).toBe(false);
    }
  });
});

describe('a dashboard search, with and without the book on the device', () => {
  let server: TestServer;
  let silent: Server;
  let silentApi: string;
  let callsOff = 0;
  beforeAll(async () => {
    // The real server, with no models loaded: it answers search with 503.
    server = await startTestServer('embedded');
    // A server that takes the question and never answers.
    silent = createServer((request) => request.on('close', () => (callsOff += 1)));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentApi = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    silent?.closeAllConnections();
    silent?.close();
    await server?.close();
  });
  afterEach(() => setApiBase('/api'));

  it("shows the server's answer whenever it gives one, the device never asked", async () => {
    const portal = await startStandInPortal(() => [200, { 'content-type': 'application/json' }, JSON.stringify(FROM_SERVER)]);
    try {
      setApiBase(portal.api);
      const kept = device(true);
      expect(await searchBook('the heart', askFor('the heart'), { device: kept, online: () => true })).toEqual({ results: FROM_SERVER, answeredOn: 'server' });
      expect(kept.asked).toEqual([]);
    } finally {
      portal.close();
    }
  });

  it('answers on the device when no server can be reached, or the server cannot serve (503)', async () => {
    for (const api of ['http://127.0.0.1:1/api', `${server.url}/api`]) {
      setApiBase(api);
      const kept = device(true);
      expect(await searchBook('the heart', askFor('the heart'), { device: kept, online: () => true })).toEqual({ results: FROM_DEVICE, answeredOn: 'device' });
      expect(kept.asked).toEqual(['the heart']);
    }
  });

  it('answers on the device when the server has not answered in time, and calls the request off', async () => {
    setApiBase(silentApi);
    const kept = device(true);
    const before = callsOff;
    const started = Date.now();
    expect(await searchBook('the heart', askFor('the heart'), { device: kept, online: () => true, waitMs: 300 })).toEqual({ results: FROM_DEVICE, answeredOn: 'device' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await expect.poll(() => callsOff).toBe(before + 1);
  });

  it('answers on the device at once when the browser is offline, without asking the server', async () => {
    let asked = 0;
    const counting = await startStandInPortal(() => {
      asked += 1;
      return [200, { 'content-type': 'application/json' }, '[]'];
    });
    try {
      setApiBase(counting.api);
      expect(await searchBook('the heart', askFor('the heart'), { device: device(true), online: () => false })).toEqual({ results: FROM_DEVICE, answeredOn: 'device' });
      expect(asked).toBe(0);
    } finally {
      counting.close();
    }
  });

  it("shows the server's refusal of the question, and without the book the failure as before", async () => {
    setApiBase(`${server.url}/api`);
    const kept = device(true);
    await expect(searchBook('x'.repeat(5000), askFor('x'.repeat(5000)), { device: kept, online: () => true })).rejects.toThrow(/query/i);
    expect(kept.asked).toEqual([]);
    setApiBase('http://127.0.0.1:1/api');
    const none = device(false);
    await expect(searchBook('the heart', askFor('the heart'), { device: none, online: () => true })).rejects.toThrow('Search failed');
    await expect(searchBook('the heart', askFor('the heart'), { device: none, online: () => false })).rejects.toThrow('Search failed');
    expect(none.asked).toEqual([]);
  });

  it("says what the server's attempt came to when the device cannot answer either", async () => {
    setApiBase(`${server.url}/api`);
    await expect(searchBook('the heart', askFor('the heart'), { device: device(true, true), online: () => true })).rejects.toThrow('Search is not available on this server');
    await expect(searchBook('the heart', askFor('the heart'), { device: device(true, true), online: () => false })).rejects.toThrow('Search failed');
  });
});
