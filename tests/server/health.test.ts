import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/platform/log.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('once closing, serves what still arrives on an open connection, with Connection: close, and only then closes its store', async () => {
    const closing = await startTestServer('embedded', { extra: { engine } });
    const port = new URL(closing.url).port;
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const ended = once(socket, 'close');
    await once(socket, 'connect');
    // A search in flight (its body not all sent yet) keeps the connection busy while the app closes.
    const body = JSON.stringify({ query: 'patience', top_k: 1 });
    socket.write(`POST /api/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await sleep(100);
    const closed = closing.close();
    await sleep(100);
    // The rest of the search, and then a health check, which asks the store, on the same connection.
    socket.write(`${body.slice(5)}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n`);
    await ended;
    await closed;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 200]);
    const second = received.slice(received.lastIndexOf('HTTP/1.1 '));
    expect(second).toMatch(/^connection: close\r$/im);
    expect(second).toContain('"database":"embedded"');
  });

  it('is not ready when the store cannot be reached', async () => {
    const other = await startTestServer('embedded', { extra: { engine } });
    await other.db.close();
    const ready = await other.api('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ detail: 'The database is unavailable' });
    await other.app.close();
  });

  it('logs each request the database could not serve, readiness checks too, in one line, the driver’s words without a stack trace', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => void lines.push(line) });
    const other = await startTestServer('embedded', { extra: { engine, logger } });
    await other.db.close();
    expect((await other.api('/api/health')).status).toBe(503);
    // A load balancer's readiness checks through the outage, too.
    expect((await other.api('/api/health/ready')).status).toBe(503);
    await other.app.close();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; cause?: { message: string }; err?: unknown });
    for (const msg of ['database unavailable', 'not ready: the store does not answer']) {
      const entries = logged.filter((entry) => entry.msg === msg);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.cause!.message).toMatch(/\S/);
      expect(lines.find((line) => line.includes(msg))).not.toContain('"stack"');
    }
  });
});
