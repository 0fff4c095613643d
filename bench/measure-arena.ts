/**
 * The arena's statistics at scale: node --import tsx bench/measure-arena.ts --votes 1000000
 * [--store embedded|postgres] [--root DIR] [--skip-load]. Fills a fresh store with that many votes
 * (npm run arena:load's generator), starts the server from the sources of `--root` (this checkout
 * by default; another checkout measures another version), and measures: the first /api/stats,
 * /api/stats at 10 connections for 10 s with /api/health/live sampled every 20 ms meanwhile, how
 * long a new round takes to reach the leaderboard, and /api/save throughput (10 connections, 10
 * s, rounds of one reader's search, receipts copied as the app does; with the server process's CPU
 * time per save, on Linux). `--readers N` shares the saves among N readers, each with their own
 * search, in turn (1 by default: one reader's ten connections, whose batches are tallied one after
 * another). `--save-only` stops after the saves. PostgreSQL: a database of its own on
 * BENCH_DATABASE_URL's server. Prints one line of JSON: each figure as text, and under `measured`
 * the numbers run-bench judges them by.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadVotes } from '../scripts/arena-load.ts';
import { freePort } from '../scripts/server-process.ts';
import { openDb } from '../server/platform/store/db.ts';
import { migrate } from '../server/platform/store/migrate.ts';

const { values } = parseArgs({
  options: {
    votes: { type: 'string', default: '1000000' },
    store: { type: 'string', default: 'embedded' },
    root: { type: 'string', default: process.cwd() },
    'skip-load': { type: 'boolean', default: false },
    'save-only': { type: 'boolean', default: false },
    readers: { type: 'string', default: '1' },
  },
});
const votes = Number(values.votes);
const PASSWORD = 'bench password 1';
const ARMS = ['LSA tfidf-svd-96+lex-256+glove-100-wordnet+thesaurus+gloss', 'SIF ppmi-word-vectors-150+glove-100-wordnet+thesaurus+gloss', 'BM25 minisearch'];
/** The figures as numbers, for run-bench to judge (the text beside them is for a person). */
export interface Measured {
  savesPerSecond?: number;
  statsP99Ms?: number;
  liveP99Ms?: number;
  newVoteSeenSeconds?: number;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'arena-bench-'));
  let databaseUrl = '';
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@localhost/postgres';
  const name = `arena_bench_${randomUUID().slice(0, 8)}`;
  if (values.store === 'postgres') {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const started = performance.now();
  if (!values['skip-load'] && votes > 0) {
    const db = await openDb({ databaseUrl: databaseUrl || undefined, dataDir });
    await migrate(db);
    await loadVotes(db, votes, { arms: ARMS, bound: 30 });
    await db.close();
  }
  const loadSeconds = (performance.now() - started) / 1000;

  const port = await freePort();
  let log = '';
  // BENCH_NODE_ARGS: node flags for the server (e.g. --cpu-prof), which NODE_OPTIONS refuses.
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: values.root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      MODEL_LINEUP: 'corpus',
      MODEL_FETCH: 'never',
      SEARCH_RATE_LIMIT: '0',
      VOTE_RATE_LIMIT: '0',
      DEMO_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 600_000; ; ) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    if (await fetch(`${url}/api/health/ready`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`server not ready:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    const signIn = async (username: string) => {
      const login = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `username=${username}&password=${encodeURIComponent(PASSWORD)}&grant_type=password` });
      const token = ((await login.json()) as { access_token: string }).access_token;
      return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    };
    const auth = await signIn('demo');
    const measured: Measured = {};
    const row: Record<string, string> = { store: values.store!, votes: String(votes), load: `${loadSeconds.toFixed(0)} s`, readers: values.readers! };

    // /api/save throughput: a reader's rounds on one search (receipts copied, when the server gives them).
    const search = async (query: string) =>
      (await (await fetch(`${url}/api/search`, { method: 'POST', headers: auth, body: JSON.stringify({ query, top_k: 1 }) })).json()) as Array<{ text: string; model_type: string; receipt?: string }>;
    const round = (query: string, results: Array<{ text: string; model_type: string; receipt?: string }>, username = 'demo') => {
      const round_id = randomUUID();
      return results.slice(0, 2).map((r, i) => ({
        user_type: 'Enthusiast', username, query, retrieved_text: r.text, model_type: r.model_type, result_label: i === 0 ? 'A' : 'B',
        reaction: i === 0 ? '👍' : '👎', confidence_score: 0, client_id: randomUUID(), round_id, ...(r.receipt ? { receipt: r.receipt } : {}),
      }));
    };
    // The other readers made by the users command of the version measured (its admin socket).
    const readers = [{ name: 'demo', auth, shown: await search('the remembrance of death') }];
    for (let i = 1; i < Number(values.readers); i++) {
      const name = `bench${i}`;
      await new Promise<void>((resolve, reject) => {
        const add = spawn(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'add', name], {
          cwd: values.root,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, USER_PASSWORD: PASSWORD },
          stdio: 'ignore',
        });
        add.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`users add ${name} exited ${code}`))));
      });
      const readerAuth = await signIn(name);
      const shownTo = (await (await fetch(`${url}/api/search`, { method: 'POST', headers: readerAuth, body: JSON.stringify({ query: 'the remembrance of death', top_k: 1 }) })).json()) as Array<{ text: string; model_type: string; receipt?: string }>;
      readers.push({ name, auth: readerAuth, shown: shownTo });
    }
    let turn = 0;
    // The server process's CPU time (user + system, clock ticks of 10 ms) over the run: a figure the machine's other work moves less than saves a second.
    const cpuTicks = async () => {
      const fields = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    const cpuBefore = await cpuTicks().catch(() => NaN);
    const saves = await autocannon({
      url, connections: 10, duration: 10,
      requests: [
        {
          method: 'POST',
          path: '/api/save',
          setupRequest: (req) => {
            const reader = readers[turn++ % readers.length]!;
            return { ...req, headers: { ...reader.auth }, body: JSON.stringify({ items: round('the remembrance of death', reader.shown, reader.name) }) };
          },
        },
      ],
    });
    row.saves = `${Math.round(saves.requests.average)}/s (p99 ${saves.latency.p99} ms, non-2xx ${saves.non2xx})`;
    const cpuMs = ((await cpuTicks().catch(() => NaN)) - cpuBefore) * 10;
    row.serverCpuPerSave = `${(cpuMs / saves.requests.total).toFixed(2)} ms`;
    measured.savesPerSecond = saves.requests.average;
    if (values['save-only']) return console.log(JSON.stringify({ ...row, measured }));

    let t = performance.now();
    await fetch(`${url}/api/stats`, { headers: auth });
    row.firstStats = `${Math.round(performance.now() - t)} ms`;

    // /api/stats at 10 connections, /api/health/live sampled meanwhile.
    const live: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const at = performance.now();
        await fetch(`${url}/api/health/live`);
        live.push(performance.now() - at);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const stats = await autocannon({ url, connections: 10, duration: 10, requests: [{ method: 'GET', path: '/api/stats', headers: auth }] });
    sampling = false;
    await sampler;
    row.stats = `p50 ${stats.latency.p50} ms, p99 ${stats.latency.p99} ms, ${Math.round(stats.requests.average)}/s, non-2xx ${stats.non2xx}`;
    row.live = `p99 ${quantile(live, 0.99).toFixed(1)} ms, max ${Math.max(...live).toFixed(1)} ms (${live.length} samples)`;
    measured.statsP99Ms = stats.latency.p99;
    measured.liveP99Ms = quantile(live, 0.99);

    // A new round, until the leaderboard counts it.
    // Decided rounds, compared or showing one passage twice (a pair that agrees on the first passage).
    type Rounds = { rounds: { compared: number; samePassage: number } };
    const decided = async () => {
      const { rounds } = (await (await fetch(`${url}/api/stats`, { headers: auth })).json()) as Rounds;
      return rounds.compared + rounds.samePassage;
    };
    const before = await decided();
    const query = `what is the heart ${randomUUID().slice(0, 4)}`;
    const fresh = await search(query);
    t = performance.now();
    await fetch(`${url}/api/save`, { method: 'POST', headers: auth, body: JSON.stringify({ items: round(query, fresh) }) });
    for (;;) {
      const now = await decided();
      if (now > before || performance.now() - t > 60_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    measured.newVoteSeenSeconds = (performance.now() - t) / 1000;
    row.newVoteSeen = `${measured.newVoteSeenSeconds.toFixed(2)} s`;
    console.log(JSON.stringify({ ...row, measured }));
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    // What the run made goes with it: a million votes are gigabytes, in /tmp or the cluster.
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
