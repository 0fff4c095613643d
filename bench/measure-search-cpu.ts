/**
 * CPU time the server spends per /api/search, warm (the bench's twelve questions, over and over)
 * and cold (every question new), and the share of the HTTP ceiling search reaches: the built
 * server started as npm start starts it, loaded by autocannon from this process, its CPU read
 * from /proc before and after each load. `npm run build` first; then
 * `node --import tsx bench/measure-search-cpu.ts` (BENCH_SECONDS, 5 by default).
 */
import { readFile } from 'node:fs/promises';
import { startServerProcess } from '../scripts/server-process.ts';
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
  const warm = await perSearch(() => measureLoad({ url: server.url, connections: 16, seconds: SECONDS, requests: QUERIES.map(post) }));
  const cold = await perSearch(() => measureLoad({ url: server.url, connections: 16, seconds: SECONDS, unique: { ...post(''), makeBody: distinct } }));
  const ceiling = await measureHttpCeiling({ serverUrl: server.url, queries: QUERIES, connections: 16, seconds: SECONDS });
  console.log(
    JSON.stringify({
      cpuPerSearchWarmMicroseconds: warm,
      cpuPerSearchColdMicroseconds: cold,
      ceiling: { search: Math.round(ceiling.search), bare: Math.round(ceiling.ceiling), ratio: Number(ceiling.ratio.toFixed(3)) },
    }),
  );
} finally {
  await server.stop();
}
