import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCommand } from '../scripts/start-command.ts';
import { freePort } from '../scripts/server-process.ts';
import { measureLoad, type LoadResult } from './measure-load.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A process's CPU time so far (user + system), in µs, from /proc (Linux); null where there is none. */
async function cpuMicros(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second); the name (field 2) may hold spaces.
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/** A load run, and the server's CPU time per request over it (null when its process is not known). */
async function measured(pid: number | undefined, run: () => Promise<LoadResult>): Promise<LoadResult & { cpuPerRequest: number | null }> {
  const before = await cpuMicros(pid);
  const result = await run();
  const after = await cpuMicros(pid);
  return { ...result, cpuPerRequest: before === null || after === null || result.requests === 0 ? null : (after - before) / result.requests };
}

/**
 * /api/search beside a bare Fastify route answering the same POSTs with the same bytes, at the same
 * concurrency, in alternating runs (three each): the share of the HTTP ceiling search reaches, and
 * each server's CPU time per request (steadier than requests a second on a machine shared with
 * other work; the search server's only when its process id is given).
 */
export async function measureHttpCeiling(options: { serverUrl: string; serverPid?: number; queries: string[]; connections: number; seconds: number }) {
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
    type Run = LoadResult & { cpuPerRequest: number | null };
    const runs: { search: Run[]; bare: Run[] } = { search: [], bare: [] };
    for (let round = 0; round < 3; round += 1) {
      runs.search.push(await measured(options.serverPid, () => measureLoad({ url: options.serverUrl, connections: options.connections, seconds: options.seconds, requests })));
      runs.bare.push(await measured(bare.pid, () => measureLoad({ url: bareUrl, connections: options.connections, seconds: options.seconds, requests })));
    }
    const search = median(runs.search.map((r) => r.requestsPerSecond));
    const ceiling = median(runs.bare.map((r) => r.requestsPerSecond));
    const cpu = (list: Run[]) => (list.every((r) => r.cpuPerRequest !== null) ? median(list.map((r) => r.cpuPerRequest!)) : null);
    return { search, ceiling, ratio: search / ceiling, searchCpuPerRequest: cpu(runs.search), bareCpuPerRequest: cpu(runs.bare) };
  } finally {
    bare.kill('SIGTERM');
  }
}
