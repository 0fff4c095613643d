import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { listenForMetrics, Metrics } from '../../server/platform/http/metrics.ts';
import { corpusEngine } from './engine-helpers.ts';
import { STORES, openTestDb, startTestServer, voteItem, type TestDb, type TestServer } from './harness.ts';

describe.each(STORES)('Prometheus metrics on %s', (store) => {
  let test: TestDb;
  let server: TestServer;
  let metricsServer: FastifyInstance;
  let metricsUrl: string;

  beforeAll(async () => {
    test = await openTestDb(store);
    const metrics = new Metrics(test.db);
    server = await startTestServer(store, { sharedDb: test.db, extra: { engine: await corpusEngine(), metrics } });
    metricsServer = await listenForMetrics(metrics, '127.0.0.1', 0, server.app.log);
    const address = metricsServer.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
    await server.addUser('reader', 'correct horse battery');
  });
  afterAll(async () => {
    await metricsServer.close();
    await server.close();
    await test.drop();
  });

  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('counts requests per route and status, search time per model, votes, and refused sign-ins', async () => {
    const answer = (await (await server.api('/api/search', { json: { query: 'the heart is like a mirror' } })).json()) as Array<{ model: string }>;
    const drawn = [...new Set(answer.map((r) => r.model))];
    await server.api('/api/search', { json: { query: '' } });
    await server.login('reader', 'wrong password');
    const tokens = (await (await server.login('reader', 'correct horse battery')).json()) as { access_token: string };
    const item = voteItem({ client_id: crypto.randomUUID() });
    await server.api('/api/save', { token: tokens.access_token, json: { items: [item] } });
    await server.api('/api/save', { token: tokens.access_token, json: { items: [item] } });
    await server.api('/api/passages/no-such-passage/context');

    const text = await scrape();
    expect(value(text, 'http_requests_total{method="POST",route="/api/search",status="200"}')).toBe(1);
    expect(value(text, 'http_requests_total{method="POST",route="/api/search",status="400"}')).toBe(1);
    expect(value(text, 'http_requests_total{method="POST",route="/api/login",status="401"}')).toBe(1);
    // A route is named by its pattern, never by the values in the path.
    expect(value(text, 'http_requests_total{method="GET",route="/api/passages/:id/context",status="404"}')).toBe(1);
    expect(text).not.toContain('no-such-passage');
    expect(value(text, 'http_request_duration_seconds_count{method="POST",route="/api/save",status="200"}')).toBe(2);
    // The two models drawn for the search, once each.
    expect(drawn).toHaveLength(2);
    for (const model of drawn) expect(value(text, `search_model_duration_seconds_count{model="${model}"}`)).toBe(1);
    expect(value(text, 'votes_saved_total')).toBe(1);
    expect(value(text, 'votes_duplicate_total')).toBe(1);
    expect(value(text, 'login_failures_total')).toBe(1);
    expect(value(text, 'login_throttled_total')).toBe(0);
    expect(text).toContain('process_resident_memory_bytes');
    if (store === 'postgres') {
      expect(value(text, 'db_pool_connections')).toBeGreaterThan(0);
      // Nothing waits in an idle pool: not even the scrape's own check of the database.
      expect(value(text, 'db_pool_waiting_requests')).toBe(0);
    }
    expect(value(text, 'db_up')).toBe(1);
  });

  it('is not served on the public port', async () => {
    expect((await server.api('/metrics')).status).not.toBe(200);
    expect((await server.api('/api/metrics')).status).toBe(404);
    // Its own port answers nothing else, in the API's form.
    const other = await fetch(metricsUrl.replace('/metrics', '/api/search'), { method: 'POST' });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: 'Not found' });
  });
});
