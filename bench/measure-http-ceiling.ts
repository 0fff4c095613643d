import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCommand } from '../scripts/start-command.ts';
import { freePort } from '../scripts/server-process.ts';
import { measureLoad, type LoadResult } from './measure-load.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * /api/search beside a bare Fastify route answering the same POSTs with the same bytes, at the same
 * concurrency, in alternating runs (three each): the share of the HTTP ceiling search reaches.
 */
export async function measureHttpCeiling(options: { serverUrl: string; queries: string[]; connections: number; seconds: number }) {
  const replies: Record<string, string> = {};
  for (const query of options.queries) {
    const res = await fetch(`${options.serverUrl}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    replies[query] = await res.text();
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-bare-'));
  const repliesFile = path.join(dir, 'replies.json');
  await writeFile(repliesFile, JSON.stringify(replies));
  const port = await freePort();
  const bare = spawn(process.execPath, [...startCommand().args.slice(0, -1), path.resolve('bench/bare-fastify.mjs')], {
    env: { ...process.env, PORT: String(port), REPLIES_FILE: repliesFile },
    stdio: 'inherit',
  });
  const bareUrl = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i += 1) {
      if (bare.exitCode !== null) throw new Error(`the bare server exited with ${bare.exitCode}`);
      if (await fetch(`${bareUrl}/api/health`).then((r) => r.ok, () => false)) break;
      if (i > 400) throw new Error('the bare server did not start');
      await new Promise((r) => setTimeout(r, 25));
    }
    const requests = options.queries.map((query) => ({
      method: 'POST' as const,
      path: '/api/search',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    }));
    const runs: { search: LoadResult[]; bare: LoadResult[] } = { search: [], bare: [] };
    for (let round = 0; round < 3; round += 1) {
      runs.search.push(await measureLoad({ url: options.serverUrl, connections: options.connections, seconds: options.seconds, requests }));
      runs.bare.push(await measureLoad({ url: bareUrl, connections: options.connections, seconds: options.seconds, requests }));
    }
    const search = median(runs.search.map((r) => r.requestsPerSecond));
    const ceiling = median(runs.bare.map((r) => r.requestsPerSecond));
    return { search, ceiling, ratio: search / ceiling };
  } finally {
    bare.kill('SIGTERM');
  }
}
