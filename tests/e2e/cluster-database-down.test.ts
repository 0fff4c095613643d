import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { nginxInstalled } from '../../scripts/cluster-nginx.ts';
import { startCluster, type Cluster } from '../../scripts/cluster-topology.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../server/private-postgres.ts';
import { addFittedModels } from '../run-fixtures.ts';
import { freePort } from './server-process.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A PostgreSQL of the test's own, stopped under a running cluster: where PostgreSQL and nginx are
// installed and the PostgreSQL suites run (TEST_DATABASE_URL set, as in CI).
describe.runIf(Boolean(process.env.TEST_DATABASE_URL) && nginxInstalled())('two instances behind nginx while their PostgreSQL is down', () => {
  let database: PrivatePostgres | undefined;
  let cluster: Cluster | undefined;
  let dataRoot: string | undefined;
  const log: string[] = [];

  afterAll(async () => {
    await cluster?.stop();
    await database?.destroy();
    if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
  }, 60_000);

  it('go on serving the app and search, answer votes with their JSON 503 (not nginx’s 502), and take them again once it is back', async () => {
    onTestFailed(() => console.log(`The cluster's output (last 50 lines):\n${log.slice(-50).join('\n')}`));
    database = await startPrivatePostgres();
    dataRoot = await mkdtemp(path.join(tmpdir(), 'alchemy-db-down-'));
    // Each instance's DATA_DIR (instance-N, as startCluster names them) with the models fitted: its first start loads them.
    for (const instance of ['instance-1', 'instance-2']) await addFittedModels(path.join(dataRoot, instance));
    const [port, ...instancePorts] = [await freePort(), await freePort(), await freePort()] as [number, number, number];
    cluster = await startCluster({
      databaseUrl: database.url,
      dataRoot,
      port,
      instancePorts,
      env: { LOG_LEVEL: 'warn', MODEL_FETCH: 'never', DEMO_PASSWORD: 'demo password 1', SEARCH_RATE_LIMIT: '0' },
      output: (name, line) => log.push(`[${name}] ${line}`),
    });
    const url = cluster.url;
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo', password: 'demo password 1', grant_type: 'password' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const vote = {
      user_type: 'Enthusiast',
      username: 'demo',
      query: 'patience',
      retrieved_text: 'Patience is half of faith.',
      model_type: 'LSA tfidf-svd-96+lex-256+glove-100-wordnet+thesaurus+gloss',
      result_label: 'A',
      reaction: '👍',
      confidence_score: 0.5,
      client_id: randomUUID(),
    };
    const save = () =>
      fetch(`${url}/api/save`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ items: [vote] }),
      });
    const search = () =>
      fetch(`${url}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'patience', top_k: 1 }) });

    await database.stop();
    const seen: Record<string, number> = {};
    for (let i = 0; i < 8; i += 1) {
      const saved = await save();
      expect(saved.status).toBe(503);
      expect(saved.headers.get('retry-after')).toBe('5');
      expect(await saved.json()).toEqual({ detail: 'The database is unavailable. Please try again shortly.' });
      for (const [what, res] of [
        ['search', await search()],
        ['page', await fetch(`${url}/`)],
      ] as const) {
        seen[`${what} ${res.status}`] = (seen[`${what} ${res.status}`] ?? 0) + 1;
      }
      await sleep(100);
    }
    // Every instance stayed in the rotation: a 503 is the database's answer, not the instance failing.
    expect(seen).toEqual({ 'search 200': 8, 'page 200': 8 });
    // Each pooled connection lost is one short line saying what PostgreSQL said, not pg's stack.
    const lost = log.filter((line) => line.includes('database connection lost'));
    expect(lost.length).toBeGreaterThan(0);
    for (const line of lost) {
      expect(line.length).toBeLessThan(400);
      expect(line).not.toContain('node_modules');
      expect(line).toMatch(/"cause":\{"message":"[^"]+"/);
    }

    await database.start();
    // The reader's outbox sends the vote again until it is taken.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt += 1) {
      status = (await save()).status;
      if (status !== 200) await sleep(500);
    }
    expect(status).toBe(200);
  }, 120_000);
});
