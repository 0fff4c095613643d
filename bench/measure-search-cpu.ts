/**
 * CPU time the server spends per /api/search, warm (the bench's twelve questions, over and over)
 * and cold (every question new), beside the bare Fastify route of bench/bare-fastify.mjs sending
 * the same bytes, and the share of the HTTP ceiling search reaches: the built server started as
 * npm start starts it, loaded by autocannon from this process, its CPU read from /proc before and
 * after each load. On a busy machine requests per second swing with the neighbours; CPU per
 * request much less, and bare ÷ search CPU per request is the ratio a quiet machine would show.
 * `npm run build` first; then `node --import tsx bench/measure-search-cpu.ts` (BENCH_SECONDS, 5
 * by default).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCommand } from '../scripts/start-command.ts';
import { freePort, startServerProcess } from '../scripts/server-process.ts';
import { measureHttpCeiling } from './measure-http-ceiling.ts';
import { measureLoad } from './measure-load.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const QUERIES = [
  'What is the key to the knowledge of God?',
  'patience in marriage',
  'the heart is like a mirror',
  'Why does God send illness?',
  'music and dancing',
  'the world as a sorceress',
  'how should I examine myself each evening',
  'the love of God',
  'blind men and the elephant',
  'what happens after death',
  'reason as a prime minister',
  'the vision of God',
];
const WORDS = 'heart soul love god world death patience knowledge self mirror reason anger lust angel prophet prayer marriage wife music dance'.split(' ');

/** The process's user + system CPU time so far, in milliseconds (Linux: /proc/<pid>/stat, in ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const post = (query: string) => ({ method: 'POST' as const, path: '/api/search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

const server = await startServerProcess({ SEARCH_RATE_LIMIT: '0', DEMO_PASSWORD: 'bench password 1', LOG_LEVEL: 'warn' });
try {
  const pid = server.process.pid!;
  for (const q of QUERIES) await fetch(`${server.url}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });
  const perSearch = async (load: () => ReturnType<typeof measureLoad>) => {
    const before = await cpuMs(pid);
    const result = await load();
    const cpu = (await cpuMs(pid)) - before;
    return { microseconds: Math.round((cpu * 1000) / result.requests), requests: result.requests, rps: Math.round(result.requestsPerSecond), errors: result.errors + result.non2xx };
  };
  let n = 0;
  const distinct = () => {
    n += 1;
    const pick = (k: number) => WORDS[Math.floor(n / WORDS.length ** k) % WORDS.length]!;
    return JSON.stringify({ query: `${pick(0)} ${pick(1)} ${pick(2)} cold ${n}` });
  };
  // The bare route, sending the bytes the server sent for each question.
  const replies: Record<string, string> = {};
  for (const query of QUERIES) replies[query] = await (await fetch(`${server.url}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).text();
  const repliesFile = path.join(await mkdtemp(path.join(tmpdir(), 'bench-bare-')), 'replies.json');
  await writeFile(repliesFile, JSON.stringify(replies));
  const port = await freePort();
  const bare = spawn(process.execPath, [...startCommand().args.slice(0, -1), path.resolve('bench/bare-fastify.mjs')], { env: { ...process.env, PORT: String(port), REPLIES_FILE: repliesFile }, stdio: 'inherit' });
  const bareUrl = `http://127.0.0.1:${port}`;
  while (!(await fetch(`${bareUrl}/api/health`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 25));
  const perRequest = async (url: string, target: number) => {
    const before = await cpuMs(target);
    const result = await measureLoad({ url, connections: 16, seconds: SECONDS, requests: QUERIES.map(post) });
    return ((await cpuMs(target)) - before) * 1000 / result.requests;
  };
  const searchCpu: number[] = [];
  const bareCpu: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    searchCpu.push(await perRequest(server.url, pid));
    bareCpu.push(await perRequest(bareUrl, bare.pid!));
  }
  bare.kill('SIGTERM');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  const cpuRatio = { searchMicroseconds: Math.round(median(searchCpu)), bareMicroseconds: Math.round(median(bareCpu)), ratio: Number((median(bareCpu) / median(searchCpu)).toFixed(3)) };
  const warm = await perSearch(() => measureLoad({ url: server.url, connections: 16, seconds: SECONDS, requests: QUERIES.map(post) }));
  const cold = await perSearch(() => measureLoad({ url: server.url, connections: 16, seconds: SECONDS, unique: { ...post(''), makeBody: distinct } }));
  const ceiling = process.env.CEILING === '0' ? { search: 0, ceiling: 0, ratio: 0 } : await measureHttpCeiling({ serverUrl: server.url, queries: QUERIES, connections: 16, seconds: SECONDS });
  console.log(
    JSON.stringify({
      cpuPerRequestWarmBesideBare: cpuRatio,
      cpuPerSearchWarmMicroseconds: warm,
      cpuPerSearchColdMicroseconds: cold,
      ceiling: { search: Math.round(ceiling.search), bare: Math.round(ceiling.ceiling), ratio: Number(ceiling.ratio.toFixed(3)) },
    }),
  );
} finally {
  await server.stop();
}
