/**
 * Search throughput of several instances behind nginx beside one instance alone: the same load,
 * on the same machine, the same PostgreSQL database, with the parts `npm run cluster` starts
 * (scripts/cluster-topology.ts). The search rate limit is off for every instance.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureLocalPostgres } from '../scripts/cluster-database.ts';
import { Instance } from '../scripts/cluster-instance.ts';
import { Nginx, nginxInstalled, NGINX_BIN } from '../scripts/cluster-nginx.ts';
import type { OutputSink } from '../scripts/cluster-processes.ts';
import { freePort } from '../scripts/server-process.ts';
import { measureLoad, type LoadResult } from './measure-load.ts';

type SearchRequest = { method: 'POST'; path: string; headers: Record<string, string>; body: string };

export interface ClusterLoad {
  /** What served the load: "one instance alone", "nginx → one instance", "nginx → two instances". */
  served: string;
  connections: number;
  result: LoadResult;
}

const ENV = { SEARCH_RATE_LIMIT: '0', LOG_LEVEL: 'warn', MODEL_FETCH: 'never' };

/**
 * The database: BENCH_DATABASE_URL, or this machine's PostgreSQL (started as `npm run cluster`
 * starts it) and its database alchemy_bench. A string says why the measure cannot run here.
 */
export async function benchDatabase(): Promise<string> {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  return ensureLocalPostgres('alchemy_bench', (line) => console.error(`  ${line}`));
}

/**
 * One instance alone (A, directly), nginx → A, and nginx → A and B, all started first and then
 * loaded in turn, `rounds` times over, so that other work on the machine weighs on the three
 * alike; for each, the round with the most requests a second is kept.
 */
export async function measureCluster(options: { seconds: number; connections: number[]; requests: SearchRequest[]; rounds?: number }): Promise<ClusterLoad[] | string> {
  if (!nginxInstalled()) return `nginx is not installed (${NGINX_BIN})`;
  let databaseUrl: string;
  try {
    databaseUrl = await benchDatabase();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const dataRoot = await mkdtemp(path.join(tmpdir(), 'bench-cluster-'));
  await chmod(dataRoot, 0o755); // nginx's workers (nobody, when started as root) reach their temp folders inside
  const log: string[] = [];
  const output: OutputSink = (name, line) => log.push(`[${name}] ${line}`);
  const instance = async (name: string) =>
    new Instance({ name, port: await freePort(), dataDir: path.join(dataRoot, name), databaseUrl, env: ENV, output });
  const a = await instance('instance-a');
  const b = await instance('instance-b');
  const toA = new Nginx({ prefix: path.join(dataRoot, 'nginx-a'), port: await freePort(), upstreamPorts: [a.options.port], output });
  const toBoth = new Nginx({ prefix: path.join(dataRoot, 'nginx-ab'), port: await freePort(), upstreamPorts: [a.options.port, b.options.port], output });
  try {
    a.start();
    b.start();
    await Promise.all([a.ready(), b.ready()]);
    await toA.start();
    await toBoth.start();
    const targets = [
      { served: 'one instance alone', url: a.url },
      { served: 'nginx → one instance', url: toA.url },
      { served: 'nginx → two instances', url: toBoth.url },
    ];
    // Each instance's query cache warm: every query at least once on each (round-robin).
    for (const target of targets) {
      for (const r of options.requests) {
        for (let i = 0; i < 2; i++) await (await fetch(`${target.url}${r.path}`, { method: r.method, headers: r.headers, body: r.body })).arrayBuffer();
      }
    }
    const best = new Map<string, ClusterLoad>();
    for (const connections of options.connections) {
      for (let round = 0; round < (options.rounds ?? 2); round++) {
        for (const target of targets) {
          const result = await measureLoad({ url: target.url, connections, seconds: options.seconds, requests: options.requests });
          const key = `${target.served} ${connections}`;
          const kept = best.get(key);
          if (!kept || result.requestsPerSecond > kept.result.requestsPerSecond) best.set(key, { served: target.served, connections, result });
        }
      }
    }
    return [...best.values()];
  } catch (error) {
    console.error(log.slice(-50).join('\n'));
    throw error;
  } finally {
    await toBoth.stop();
    await toA.stop();
    await Promise.all([a.stop(), b.stop()]);
    await rm(dataRoot, { recursive: true, force: true });
  }
}
