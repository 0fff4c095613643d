/**
 * Search throughput of several instances behind nginx beside one instance alone: the same load,
 * on the same machine, the same PostgreSQL database, with the topology `npm run cluster` starts
 * (scripts/cluster-topology.ts). The search rate limit is off for every instance.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureLocalPostgres, Instance, nginxInstalled, NGINX_BIN, startCluster, type OutputSink } from '../scripts/cluster-topology.ts';
import { freePort } from '../tests/e2e/server-process.ts';
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
async function benchDatabase(): Promise<string> {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  return ensureLocalPostgres('alchemy_bench', (line) => console.error(`  ${line}`));
}

export async function measureCluster(options: { seconds: number; connections: number[]; requests: SearchRequest[] }): Promise<ClusterLoad[] | string> {
  if (!nginxInstalled()) return `nginx is not installed (${NGINX_BIN})`;
  let databaseUrl: string;
  try {
    databaseUrl = await benchDatabase();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const dataRoot = await mkdtemp(path.join(tmpdir(), 'bench-cluster-'));
  const log: string[] = [];
  const output: OutputSink = (name, line) => log.push(`[${name}] ${line}`);
  const loads: ClusterLoad[] = [];
  const drive = async (served: string, url: string) => {
    // Each instance's query cache warm: every query at least once on each (round-robin).
    for (let i = 0; i < 4; i++) {
      for (const r of options.requests) await fetch(`${url}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
    }
    for (const connections of options.connections) {
      loads.push({ served, connections, result: await measureLoad({ url, connections, seconds: options.seconds, requests: options.requests }) });
    }
  };
  try {
    // One instance alone, in instance-1's data folder, so that the clusters after it start from its vector cache.
    const alone = new Instance({ name: 'alone', port: await freePort(), dataDir: path.join(dataRoot, 'instance-1'), databaseUrl, env: ENV, output });
    alone.start();
    try {
      await alone.ready();
      await drive('one instance alone', alone.url);
    } finally {
      await alone.stop();
    }
    for (const count of [1, 2]) {
      const ports = [await freePort()];
      for (let i = 1; i < count; i++) ports.push(await freePort());
      const cluster = await startCluster({ databaseUrl, dataRoot, port: await freePort(), instancePorts: ports, env: ENV, output });
      try {
        await drive(`nginx → ${count === 1 ? 'one instance' : 'two instances'}`, cluster.url);
      } finally {
        await cluster.stop();
      }
    }
    return loads;
  } catch (error) {
    console.error(log.slice(-50).join('\n'));
    throw error;
  } finally {
    await rm(dataRoot, { recursive: true, force: true });
  }
}
