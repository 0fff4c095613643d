/**
 * Several instances of the built server on one PostgreSQL database, behind Debian's nginx: the
 * parts `npm run cluster` (scripts/cluster.ts), its end-to-end test and the bench share.
 *
 * Each instance runs exactly as `npm start` runs the built server (the node flags and environment
 * of package.json's start script), with its own PORT and DATA_DIR, the same DATABASE_URL,
 * TRUST_PROXY=true and no JWT_SECRET (the instances share their signing keys through the store).
 * nginx runs in the foreground as a child (cluster-nginx.ts). This module puts them together and
 * supervises them: a child that dies on its own is started again (RESTART_POLICY's waits). The
 * children's processes: cluster-processes.ts; the database: cluster-database.ts.
 */
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Instance } from './cluster-instance.ts';
import { Nginx } from './cluster-nginx.ts';
import { prefixedOutput, type CrashHandler, type OutputSink, type Supervised } from './cluster-processes.ts';
import { restartDelay } from './restart-policy.ts';

export interface ClusterOptions {
  databaseUrl: string;
  /** Holds instance-N/ (each instance's DATA_DIR) and nginx/ (nginx's prefix). */
  dataRoot: string;
  /** nginx listens here (loopback only). */
  port: number;
  /** One port per instance. */
  instancePorts: number[];
  /** One metrics port per instance, beside `instancePorts`; none without. */
  metricsPorts?: number[];
  /** More environment for every instance. */
  env?: Record<string, string>;
  accessLog?: boolean;
  output?: OutputSink;
  /** Start an instance, or nginx, again when it exits without being asked to (RESTART_POLICY's waits). */
  restartCrashed?: boolean;
}

export interface Cluster {
  url: string;
  instances: Instance[];
  nginx: Nginx;
  /** nginx first (it finishes what it has in flight), then every instance drains. */
  stop(): Promise<void>;
}

/** Starts the instances, waits until each is ready, then starts nginx in front of them. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const output = options.output ?? prefixedOutput;
  const dataRoot = path.resolve(options.dataRoot);
  const supervisor = { stopping: false, delays: new Map<Supervised, number>(), timers: new Set<NodeJS.Timeout>() };
  const restart: CrashHandler = (child, exit, upForMs) => {
    if (supervisor.stopping) return;
    const delay = restartDelay(supervisor.delays.get(child), upForMs);
    supervisor.delays.set(child, delay);
    const how = exit.signal ? `on ${exit.signal}` : `with code ${exit.code}`;
    output('cluster', `${child.name} stopped unexpectedly (${how}); starting it again in ${delay / 1000} s`);
    const timer = setTimeout(() => {
      supervisor.timers.delete(timer);
      if (supervisor.stopping || child.isRunning) return;
      // Should it exit again before it is ready, onCrash schedules the next try.
      child.relaunch().then(
        () => output('cluster', `${child.name} is serving again`),
        (error: unknown) => {
          if (!supervisor.stopping) output('cluster', `${child.name} did not come back: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    }, delay);
    supervisor.timers.add(timer);
  };
  const instances = options.instancePorts.map(
    (port, i) =>
      new Instance({
        name: `instance-${i + 1}`,
        port,
        dataDir: path.join(dataRoot, `instance-${i + 1}`),
        databaseUrl: options.databaseUrl,
        env: options.env,
        metricsPort: options.metricsPorts?.[i],
        output,
        onCrash: options.restartCrashed ? restart : undefined,
      }),
  );
  const nginx = new Nginx({
    prefix: path.join(dataRoot, 'nginx'),
    port: options.port,
    upstreamPorts: options.instancePorts,
    accessLog: options.accessLog,
    output,
    onCrash: options.restartCrashed ? restart : undefined,
  });
  const stop = async () => {
    supervisor.stopping = true;
    for (const timer of supervisor.timers) clearTimeout(timer);
    await nginx.stop();
    await Promise.all(instances.map((instance) => instance.stop('SIGTERM')));
  };
  try {
    // nginx's workers (nobody, when started as root) must be able to reach its prefix inside.
    await mkdir(dataRoot, { recursive: true });
    await chmod(dataRoot, 0o755);
    for (const instance of instances) {
      await mkdir(instance.options.dataDir, { recursive: true, mode: 0o700 });
      instance.start();
    }
    await Promise.all(instances.map((instance) => instance.ready()));
    await nginx.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: nginx.url, instances, nginx, stop };
}
