import { chmod, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writableByOthers } from '../fixtures/file-modes.ts';
import { systemIdentifier } from '../fixtures/pg-control.ts';
import { startServerProcess, type RunningServer } from './server-process.ts';

describe('the server as npm start runs it', () => {
  let server: RunningServer;

  beforeAll(async () => {
    // A first start: what it fits and makes is what this suite is about.
    server = await startServerProcess({ DEMO_PASSWORD: 'demo password 1', LOG_LEVEL: 'info' }, { firstStart: true });
  });
  afterAll(() => server.stop('SIGKILL'));

  it('answers /api/health on the embedded store, naming the lineup', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      database: 'embedded',
      lineup: 'corpus',
      corpus: { title: 'The Alchemy of Happiness', chapters: 11 },
    });
    expect(server.output()).toContain('model lineup: corpus');
  });

  it('writes at most 30 lines on a first start up to being ready, the address among them', () => {
    const lines = server.output().split('\n');
    const ready = lines.findIndex((line) => line.includes('"msg":"ready"'));
    expect(ready).toBeGreaterThan(0);
    expect(ready + 1).toBeLessThanOrEqual(30);
    expect(lines[ready]).toContain(`"address":"${server.url}"`);
  });

  it('fits the weight-free models in a worker thread on a first start, then loads what it cached', () => {
    const log = server.output();
    expect(log).toMatch(/"models":\["lsa-96","sif-150"\].*"msg":"indexes built in a worker thread"/);
    // The main thread fits nothing itself: it loads both indexes as a restart would.
    expect(log).toContain('index for lsa-96 loaded from cache');
    expect(log).toContain('index for sif-150 loaded from cache');
    expect(log).not.toContain('index for lsa-96 built');
  });

  it('starts its embedded database as a copy of the empty one the build made, not by initdb', async () => {
    const template = path.resolve(import.meta.dirname, '../../dist-server/pgdata-template');
    expect(await systemIdentifier(path.join(server.dataDir, 'pgdata'))).toBe(await systemIdentifier(template));
    // Neither the template nor its copy may be changed by another user (PGlite's initdb made its files 0666).
    expect(await writableByOthers(template)).toEqual([]);
    // The template is readable by anyone, so that a build made by one user starts as another (a
    // service account): its PG_VERSION was 0600 under a 0700 folder, the build looked missing to
    // them, and npm start tried to build again where it could not write.
    expect((await stat(template)).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(template, 'global', 'pg_control'))).mode & 0o777).toBe(0o644);
    expect(await writableByOthers(path.join(server.dataDir, 'pgdata'))).toEqual([]);
    // Made beside DATA_DIR/pgdata and renamed into place: no draft is left.
    expect((await readdir(server.dataDir)).filter((name) => name.includes('.new-'))).toEqual([]);
  });

  it('answers a search with two interleaved models', async () => {
    const res = await fetch(`${server.url}/api/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'the heart is like a mirror' }),
    });
    const results = (await res.json()) as Array<{ model: string; rank: number }>;
    expect(results.slice(0, 2).map((r) => r.rank)).toEqual([1, 1]);
    expect(new Set(results.slice(0, 2).map((r) => r.model)).size).toBe(2);
  });

  it('serves the built PWA at / and at client routes', async () => {
    for (const route of ['/', '/dashboard']) {
      const html = await (await fetch(server.url + route)).text();
      expect(html).toContain('<div id="root"');
      expect(html).toMatch(/src="\/assets\/[^"]+\.js"/);
    }
  });

  it('signs in the demo user created on first start', async () => {
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=demo&password=demo+password+1&grant_type=password',
    });
    expect(res.status).toBe(200);
  });

  it('keeps its data across a restart, and shuts down cleanly on SIGTERM', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).not.toContain('demo password 1');
    // Opened to others in between (a careless copy, a umask): the start closes it again.
    await chmod(server.dataDir, 0o755);
    server = await startServerProcess({ DATA_DIR: server.dataDir, DEMO_PASSWORD: 'ignored now', LOG_LEVEL: 'info' });
    expect((await stat(server.dataDir)).mode & 0o777).toBe(0o700);
    expect(server.output()).toContain(`DATA_DIR ${server.dataDir} was open to other users (mode 755); it is now 700`);
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=demo&password=demo+password+1&grant_type=password',
    });
    expect(res.status).toBe(200);
    expect(server.output()).toContain('index for lsa-96 loaded from cache');
    // Nothing to fit: no worker thread is started.
    expect(server.output()).not.toContain('indexes built in a worker thread');
  });
});
