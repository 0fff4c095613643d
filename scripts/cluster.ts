/**
 * npm run cluster: INSTANCES (default 2) servers on one PostgreSQL database behind nginx on PORT
 * (default 8080, loopback only); instance N listens on PORT + N with DATA_DIR
 * data/cluster/instance-N. Without DATABASE_URL it starts this machine's PostgreSQL and uses its
 * database `alchemy`. An instance that crashes is started again (scripts/restart-policy.ts) while
 * nginx sends its readers to the others; so is nginx itself. Ctrl-C (or SIGTERM) stops nginx, then drains every instance.
 * With METRICS_PORT, instance N serves its metrics on METRICS_PORT + N.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureLocalPostgres, redacted } from './cluster-database.ts';
import { nginxInstalled, NGINX_BIN } from './cluster-nginx.ts';
import { prefixedOutput } from './cluster-processes.ts';
import { startCluster, type Cluster } from './cluster-topology.ts';
import { REPO_ROOT } from './start-command.ts';

function wholeNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const say = (line: string) => prefixedOutput('cluster', line);

async function main(): Promise<void> {
  const instances = wholeNumber('INSTANCES', 2, 1, 16);
  const port = wholeNumber('PORT', 8080, 1, 65535 - instances);
  if (!nginxInstalled()) {
    console.error(`nginx is not installed (${NGINX_BIN}): apt-get install nginx, or set NGINX_BIN`);
    process.exit(1);
  }

  // As npm start's prestart: build only when the build's inputs changed.
  const build = spawnSync(process.execPath, ['scripts/build-stamp.mjs', 'build-if-stale'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const databaseUrl = process.env.DATABASE_URL || (await ensureLocalPostgres('alchemy', say));
  const instancePorts = Array.from({ length: instances }, (_, i) => port + i + 1);
  const metricsBase = process.env.METRICS_PORT ? wholeNumber('METRICS_PORT', 0, 1, 65535 - instances) : undefined;
  const metricsPorts = metricsBase === undefined ? undefined : Array.from({ length: instances }, (_, i) => metricsBase + i + 1);
  if (metricsPorts?.some((p) => p === port || instancePorts.includes(p))) {
    console.error(`METRICS_PORT + 1 to + ${instances} (the instances' metrics) must not be PORT or PORT + 1 to + ${instances} (nginx and the instances)`);
    process.exit(2);
  }
  say(`starting ${instances} instances on ${redacted(databaseUrl)}`);

  const state: { cluster?: Cluster; stopping: boolean } = { stopping: false };
  const shutdown = (signal: NodeJS.Signals) => {
    if (state.stopping) {
      say(`${signal} again: killing everything now`);
      process.exit(1); // the exit handler kills the children
    }
    state.stopping = true;
    say(`${signal}: stopping nginx, then draining the instances`);
    void (state.cluster?.stop() ?? Promise.resolve()).then(
      () => {
        say('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  const cluster = await startCluster({
    databaseUrl,
    dataRoot: path.join(REPO_ROOT, 'data', 'cluster'),
    port,
    instancePorts,
    ...(metricsPorts ? { metricsPorts } : {}),
    output: prefixedOutput,
    restartCrashed: true,
  });
  state.cluster = cluster;
  if (state.stopping) return void cluster.stop();
  const behind = cluster.instances
    .map((i) => `${i.name} :${i.options.port}${i.options.metricsPort ? ` (metrics :${i.options.metricsPort})` : ''}`)
    .join(', ');
  console.log(`Cluster ready: ${cluster.url} (nginx → ${behind}; Ctrl-C stops it)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
