import { act, renderHook, waitFor } from '@testing-library/react';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { SAME_QUESTION_AGAIN_MS, useSearch } from '../../src/features/search/use-search.ts';
import { corpusEngine } from '../server/engine-helpers.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

/**
 * A pass-through proxy in front of the real server that holds back a search for a question until
 * the test lets it go, and tells how each search request ended: answered, or aborted by the page.
 */
async function holdingProxy(target: string, heldQuestion: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const sent: Array<{ query: string; ended: Promise<'answered' | 'aborted'> }> = [];
  const proxy = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const { query } = JSON.parse(body) as { query: string };
    sent.push({ query, ended: new Promise((resolve) => response.on('close', () => resolve(response.writableFinished ? 'answered' : 'aborted'))) });
    if (query === heldQuestion) await released;
    if (response.destroyed) return;
    const upstream = await fetch(target + request.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return { api: `http://127.0.0.1:${port}/api`, sent, release, close: () => proxy.close() };
}

describe('a search from the dashboard, against the real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('embedded', { extra: { engine: await corpusEngine() } });
  });
  afterAll(() => server.close());
  afterEach(() => vi.useRealTimers());

  it('sends a question asked again while it loads once, and shows its answer', async () => {
    const proxy = await holdingProxy(server.url, 'the heart as a mirror');
    try {
      setApiBase(proxy.api);
      const { result } = renderHook(() => useSearch('reader'));
      await act(async () => {
        void result.current.run('the heart as a mirror');
        void result.current.run('the heart as a mirror ');
      });
      await waitFor(() => expect(proxy.sent).toHaveLength(1));
      expect(result.current.status).toBe('loading');
      proxy.release();
      await waitFor(() => expect(result.current.status).toBe('done'));
      expect(result.current.round.query).toBe('the heart as a mirror');
      expect(result.current.round.pair.length).toBeGreaterThan(0);
      expect(proxy.sent).toHaveLength(1);
    } finally {
      proxy.close();
    }
  });

  it('sends a question again once its request has stalled for 3 s, aborting the stalled one', async () => {
    const proxy = await holdingProxy(server.url, 'patience');
    try {
      setApiBase(proxy.api);
      // Only the clock is made up: how long the first request has gone unanswered.
      vi.useFakeTimers({ toFake: ['Date'] });
      const { result } = renderHook(() => useSearch('reader'));
      await act(async () => {
        void result.current.run('patience');
      });
      await waitFor(() => expect(proxy.sent).toHaveLength(1));
      vi.advanceTimersByTime(SAME_QUESTION_AGAIN_MS);
      proxy.release();
      await act(async () => {
        void result.current.run('patience');
      });
      await waitFor(() => expect(result.current.status).toBe('done'));
      expect(proxy.sent.map((s) => s.query)).toEqual(['patience', 'patience']);
      expect(await proxy.sent[0]!.ended).toBe('aborted');
      expect(await proxy.sent[1]!.ended).toBe('answered');
      expect(result.current.round.query).toBe('patience');
    } finally {
      proxy.close();
    }
  });
});
