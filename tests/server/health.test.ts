import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrievalEngine } from '../../server/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

describe('health for load balancers', () => {
  let server: TestServer;
  let bare: TestServer;
  let engine: RetrievalEngine;

  beforeAll(async () => {
    engine = await corpusEngine();
    server = await startTestServer('embedded', { extra: { engine } });
    bare = await startTestServer('embedded');
  });
  afterAll(async () => {
    await server.close();
    await bare.close();
  });

  it('is live and ready with the store reachable and the models loaded', async () => {
    const live = await server.api('/api/health/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'live' });
    const ready = await server.api('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('is live but not ready without models', async () => {
    expect((await bare.api('/api/health/live')).status).toBe(200);
    const ready = await bare.api('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ detail: 'The models are not loaded' });
  });

  it('stops being ready once it drains, while it still answers what it is sent', async () => {
    server.app.lifecycle.draining = true;
    try {
      const ready = await server.api('/api/health/ready');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ detail: 'This instance is shutting down' });
      expect((await server.api('/api/health/live')).status).toBe(200);
      expect((await server.api('/api/search', { json: { query: 'patience' } })).status).toBe(200);
    } finally {
      server.app.lifecycle.draining = false;
    }
  });

  it('once closing, answers what still arrives on an open connection with a 503 a proxy can act on', async () => {
    server.app.lifecycle.closing = true;
    try {
      for (const res of [await server.api('/api/search', { json: { query: 'patience' } }), await server.api('/')]) {
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ detail: 'This instance is shutting down. Please try again.' });
        expect(res.headers.get('retry-after')).toBe('1');
        expect(res.headers.get('connection')).toBe('close');
        expect(res.headers.get('content-security-policy')).toBeTruthy();
        expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
    } finally {
      server.app.lifecycle.closing = false;
    }
  });

  it('is not ready when the store cannot be reached', async () => {
    const other = await startTestServer('embedded', { extra: { engine } });
    await other.db.close();
    const ready = await other.api('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ detail: 'The database is unavailable' });
    await other.app.close();
  });
});
