import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import type { FeedbackItem, SaveReply, SearchReply, TokenReply } from '../../contract/api-schemas.ts';
import { createDatabase, dropDatabase } from '../../scripts/cluster-database.ts';
import { nginxInstalled } from '../../scripts/cluster-nginx.ts';
import type { Exit } from '../../scripts/cluster-processes.ts';
import { startCluster, type Cluster } from '../../scripts/cluster-topology.ts';
import { REPO_ROOT } from '../../scripts/start-command.ts';
import { addFittedModels } from '../run-fixtures.ts';
import { freePort } from './server-process.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The processes of a process group that still run (a killed one waiting to be reaped does not). */
async function livingInGroup(pgid: number): Promise<number[]> {
  const living: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp …: comm may hold spaces, so read after its closing parenthesis.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') living.push(Number(entry));
  }
  return living;
}

const DATABASE = 'alchemy_cluster_test';
const READERS = 4;
/** Rounds (a search and two votes) every reader completes before, between and after the restarts. */
const ROUNDS_BETWEEN = 60;
const PASSWORD = 'cluster reader password';
const QUERIES = ['the heart is like a mirror', 'patience in marriage', 'What is the key to the knowledge of God?', 'music and dancing', 'the love of God', 'what happens after death'];
const REACTIONS = ['👍', '🤷', '👎'] as const;

/** What the readers did, over the whole run. */
interface Figures {
  requests: number;
  /** Requests answered 502 or 503 and sent again by the reader (each then succeeded, or it is a failure). */
  retried: number;
  /** The retried answers by status and request: {"503 save": 2}. */
  retriedAs: Record<string, number>;
  votes: number;
  refreshes: number;
  /** Anything else: a 401, another error status, a request that got no answer, a retry that never succeeded. */
  failures: string[];
}

class ReaderFailure extends Error {}

/**
 * A reader of the PWA, over HTTP through nginx: signs in, then searches and votes on A and B,
 * refreshing the access token when it is near expiry, as the app's client does. A 502 or 503
 * is retried (as the outbox retries a vote); anything else that is not 2xx is a failure.
 */
class Reader {
  private access = '';
  private refresh = '';
  private expiresAt = 0;
  /** client_id of every vote given (written down before it is sent). */
  readonly given: string[] = [];
  saves = 0;

  constructor(
    readonly name: string,
    private readonly url: string,
    private readonly figures: Figures,
  ) {}

  private async call<T>(what: string, path: string, init: RequestInit): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      this.figures.requests++;
      let status: number;
      let body: string;
      try {
        const reply = await fetch(`${this.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
        status = reply.status;
        body = await reply.text();
      } catch (error) {
        this.figures.failures.push(`${this.name} ${what}: no answer (${error instanceof Error ? error.message : String(error)})`);
        throw new ReaderFailure();
      }
      if ((status === 502 || status === 503) && attempt < 10) {
        this.figures.retried++;
        this.figures.retriedAs[`${status} ${what}`] = (this.figures.retriedAs[`${status} ${what}`] ?? 0) + 1;
        await sleep(200 * attempt);
        continue;
      }
      if (status === 200) return JSON.parse(body) as T;
      this.figures.failures.push(`${this.name} ${what}: ${status} ${body.slice(0, 200)}${status === 401 ? ' (signed out)' : ''}`);
      throw new ReaderFailure();
    }
  }

  private take(tokens: TokenReply): void {
    this.access = tokens.access_token;
    this.refresh = tokens.refresh_token;
    this.expiresAt = Date.now() + tokens.expires_in * 1000;
  }

  async signIn(): Promise<void> {
    const form = new URLSearchParams({ username: this.name, password: PASSWORD, grant_type: 'password' });
    this.take(await this.call<TokenReply>('login', '/api/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }));
  }

  /** One search and its round of two votes. */
  async round(): Promise<void> {
    if (this.expiresAt - Date.now() < 4_000) {
      const body = JSON.stringify({ refresh_token: this.refresh });
      this.take(await this.call<TokenReply>('refresh', '/api/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
      this.figures.refreshes++;
    }
    const query = QUERIES[Math.floor(Math.random() * QUERIES.length)]!;
    const results = await this.call<SearchReply>('search', '/api/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, top_k: 3 }),
    });
    const a = results[0]!;
    const b = results.find((r) => r.model !== a.model) ?? results[1]!;
    const roundId = randomUUID();
    const items: FeedbackItem[] = [a, b].map((r, i) => ({
      user_type: i === 0 ? 'Enthusiast' : 'Ustaz',
      username: this.name,
      query,
      retrieved_text: r.text,
      model_type: r.model_type,
      result_label: i === 0 ? 'A' : 'B',
      reaction: REACTIONS[Math.floor(Math.random() * REACTIONS.length)]!,
      confidence_score: r.similarity,
      client_id: randomUUID(),
      round_id: roundId,
    }));
    this.given.push(...items.map((item) => item.client_id!));
    this.figures.votes += items.length;
    const saved = await this.call<SaveReply>('save', '/api/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.access}` },
      body: JSON.stringify({ items }),
    });
    // A save that nginx sent again after a lost reply finds its votes already stored.
    if (saved.saved + saved.duplicates !== items.length) this.figures.failures.push(`${this.name} save: ${JSON.stringify(saved)} for ${items.length} items`);
    this.saves++;
  }

  /** Rounds until `stop()` is true; a failure ends this reader (and is in the figures). */
  async readUntil(stop: () => boolean): Promise<void> {
    try {
      await this.signIn();
      while (!stop()) {
        await this.round();
        await sleep(20 + Math.random() * 60);
      }
    } catch (error) {
      if (!(error instanceof ReaderFailure)) throw error;
    }
  }
}

const adminUrl = process.env.TEST_DATABASE_URL;

// Like every PostgreSQL suite: where TEST_DATABASE_URL names a database to use (CI sets it); and
// where Debian's nginx is installed (CI installs it).
describe.runIf(Boolean(adminUrl) && nginxInstalled())('two instances on one PostgreSQL behind nginx, restarted one at a time under load, a crashed one by the cluster itself', () => {
  let cluster: Cluster | undefined;
  let dataRoot: string | undefined;
  const log: string[] = [];

  afterAll(async () => {
    await cluster?.stop();
    if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
    if (adminUrl) await dropDatabase(adminUrl, DATABASE);
  }, 60_000);

  it('loses no vote, stores none twice, signs no reader out, and fails no request a reader did not retry', async () => {
    onTestFailed(() => console.log(`The cluster's output (last 200 lines):\n${log.slice(-200).join('\n')}`));
    const databaseUrl = await createDatabase(adminUrl!, DATABASE, { dropFirst: true });
    dataRoot = await mkdtemp(path.join(tmpdir(), 'alchemy-cluster-'));
    // Each instance's DATA_DIR (instance-N, as startCluster names them) with the models fitted: its first start loads them.
    for (const instance of ['instance-1', 'instance-2']) await addFittedModels(path.join(dataRoot, instance));
    const [port, ...instancePorts] = [await freePort(), await freePort(), await freePort()] as [number, number, number];
    const metricsPorts = [await freePort(), await freePort()];
    cluster = await startCluster({
      databaseUrl,
      dataRoot,
      port,
      instancePorts,
      // Each instance its own (one METRICS_PORT for all stopped every instance but the first).
      metricsPorts,
      env: {
        LOG_LEVEL: 'warn',
        MODEL_FETCH: 'never',
        DEMO_PASSWORD: 'demo password 1',
        // Every reader comes from 127.0.0.1 through nginx: no per-address search limit here.
        SEARCH_RATE_LIMIT: '0',
        // Each reader votes several hundred times a minute here.
        VOTE_RATE_LIMIT: '0',
        // Short-lived access tokens, so that every reader refreshes several times during the run.
        ACCESS_TOKEN_TTL_SECONDS: '12',
      },
      output: (name, line) => log.push(`[${name}] ${line}`),
      restartCrashed: true,
    });
    const [first, second] = cluster.instances as [Cluster['instances'][number], Cluster['instances'][number]];
    for (const metricsPort of metricsPorts) expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);

    // The readers, made with the users CLI against the same database.
    const names = Array.from({ length: READERS }, (_, i) => `reader-${i + 1}`);
    await Promise.all(
      names.map((name) =>
        run('npm', ['run', '--silent', 'users', '--', 'add', name], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, USER_PASSWORD: PASSWORD } }),
      ),
    );

    const figures: Figures = { requests: 0, retried: 0, retriedAs: {}, votes: 0, refreshes: 0, failures: [] };
    const readers = names.map((name) => new Reader(name, cluster!.url, figures));
    const started = performance.now();
    let stopped = false;
    const reading = Promise.all(readers.map((reader) => reader.readUntil(() => stopped || figures.failures.length > 0)));

    /** Until every reader has completed `n` more rounds (or one has failed). */
    const roundsGoOn = async (n: number) => {
      const from = readers.map((r) => r.saves);
      while (figures.failures.length === 0 && readers.some((r, i) => r.saves < from[i]! + n)) await sleep(50);
    };
    /** Stops `instance` with `signal`; every reader goes on voting while it is down; then it starts again and is waited ready. */
    const downAndUp = async (instance: typeof first, signal: 'SIGTERM' | 'SIGKILL'): Promise<Exit> => {
      const exit = await instance.stop(signal);
      await roundsGoOn(3);
      instance.start();
      await instance.ready();
      return exit;
    };

    await roundsGoOn(ROUNDS_BETWEEN);
    const drained = await downAndUp(first, 'SIGTERM');
    await roundsGoOn(ROUNDS_BETWEEN);
    const crashed = await downAndUp(second, 'SIGKILL');
    await roundsGoOn(ROUNDS_BETWEEN);
    // An instance that dies on its own (no one asked it to stop) is started again by the cluster.
    const deadPid = first.pid!;
    process.kill(deadPid, 'SIGKILL');
    while (first.pid === deadPid || !first.isRunning) await sleep(50);
    await first.ready();
    await roundsGoOn(ROUNDS_BETWEEN);
    stopped = true;
    await reading;
    const seconds = (performance.now() - started) / 1000;

    // What nginx itself sent again: each try that failed on one instance and went to the other.
    const upstreamFailures = log.filter((line) => line.startsWith('[nginx]') && line.includes('[error]') && line.includes('upstream')).length;
    console.log(
      `cluster: ${figures.requests} requests through nginx in ${seconds.toFixed(1)} s by ${READERS} readers, ` +
        `${figures.retried} answered 502/503 and retried by the reader ${JSON.stringify(figures.retriedAs)}, ` +
        `${upstreamFailures} failed on an instance and sent to the other by nginx, ${figures.votes} votes, ${figures.refreshes} token refreshes; ` +
        `instance-1 drained (exit ${drained.code ?? drained.signal}), instance-2 killed (${crashed.signal ?? crashed.code}), each restarted; instance-1 crashed and was restarted by the cluster`,
    );
    expect(figures.failures).toEqual([]);
    expect(drained).toEqual({ code: 0, signal: null });
    expect(crashed.signal).toBe('SIGKILL');
    expect(log).toContain('[cluster] instance-1 stopped unexpectedly (on SIGKILL); starting it again in 1 s');
    expect(log).toContain('[cluster] instance-1 is serving again');
    // The instances stopped on purpose above were left to the test to start again.
    expect(log.filter((line) => line.includes('stopped unexpectedly'))).toHaveLength(1);

    // nginx killed outright (no drain, its workers orphaned) is started again too, on its port.
    const nginxPid = cluster.nginx.pid!;
    process.kill(nginxPid, 'SIGKILL');
    while (cluster.nginx.pid === nginxPid || !cluster.nginx.isRunning) await sleep(50);
    while (!log.includes('[cluster] nginx is serving again')) await sleep(50);
    expect(log).toContain('[cluster] nginx stopped unexpectedly (on SIGKILL); starting it again in 1 s');
    // The old master's workers are gone (left alone they go on answering on the port, and the new
    // master cannot bind it); once they are, the new master answers.
    expect(await livingInGroup(nginxPid)).toEqual([]);
    expect(cluster.nginx.isRunning).toBe(true);
    expect((await fetch(`${cluster.url}/api/health/ready`)).status).toBe(200);

    // Every vote given is stored, once; nothing else is.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const stored = await db.query<{ author: string; client_id: string; copies: number }>(
      'SELECT author, client_id::text AS client_id, count(*)::int AS copies FROM feedback GROUP BY author, client_id',
    );
    await db.end();
    const storedBy = (name: string) => stored.rows.filter((row) => row.author === name);
    for (const reader of readers) {
      expect(storedBy(reader.name).map((row) => row.client_id).sort()).toEqual([...reader.given].sort());
    }
    expect(stored.rows.filter((row) => row.copies !== 1)).toEqual([]);
    expect(stored.rows.length).toBe(figures.votes);
  }, 240_000);
});
