/**
 * Several instances of the built server on one PostgreSQL database, behind Debian's nginx: the
 * parts `npm run cluster` (scripts/cluster.ts), its end-to-end test and the bench share.
 *
 * Each instance runs exactly as `npm start` runs the built server (the node flags and environment
 * of package.json's start script), with its own PORT and DATA_DIR, the same DATABASE_URL,
 * TRUST_PROXY=true and no JWT_SECRET (the instances share their signing keys through the store).
 * nginx runs in the foreground as a child, with its prefix, configuration, pid and temp files in
 * a folder of its own, its configuration made from deploy/nginx/cluster.conf.template.
 */
import { REPO_ROOT, startCommand } from './start-command.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { restartDelay } from './restart-policy.ts';
import { SECURITY_HEADERS } from '../server/http/security-headers.ts';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pg from 'pg';

export { REPO_ROOT };
export const NGINX_BIN = process.env.NGINX_BIN || '/usr/sbin/nginx';
export const NGINX_TEMPLATE = path.join(REPO_ROOT, 'deploy', 'nginx', 'cluster.conf.template');
const HOST = '127.0.0.1';

/** Where a child's output goes, a line at a time, with the child's name. */
export type OutputSink = (name: string, line: string) => void;

/** Writes each line to this process's stdout, prefixed with the child's name. */
export const prefixedOutput: OutputSink = (name, line) => {
  process.stdout.write(`[${name}] ${line}\n`);
};

export function nginxInstalled(): boolean {
  return existsSync(NGINX_BIN);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Children still running when this process exits (an error, a second Ctrl-C) are killed with it:
// they run in process groups of their own, so nothing else would stop them.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function forwardLines(stream: Readable | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    rest += chunk;
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (rest) onLine(rest);
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Child {
  process: ChildProcess;
  exited: Promise<Exit>;
}

/**
 * Spawns a child in a process group of its own, so that a Ctrl-C at the terminal reaches only
 * this process, which then stops the children in order (nginx first, then the instances).
 */
function spawnChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, output: OutputSink): Child {
  const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  forwardLines(child.stdout, (line) => output(name, line));
  forwardLines(child.stderr, (line) => output(name, line));
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => {
      output(name, `could not start ${command}: ${error.message}`);
      running.delete(child);
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      // What the child left behind in its group goes with it: nginx's workers outlive a master
      // killed outright, and would hold its port against the next one.
      killGroup(child);
      output(name, signal ? `exited on ${signal}` : `exited with code ${code}`);
      resolve({ code, signal });
    });
  });
  return { process: child, exited };
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is empty already (ESRCH): the usual case
  }
}

/** Sends `signal`, and SIGKILL when the child has not exited `graceMs` later. */
async function stopChild(child: Child, signal: NodeJS.Signals, graceMs: number): Promise<Exit> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return child.exited;
  child.process.kill(signal);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  const exit = await child.exited;
  clearTimeout(timer);
  return exit;
}

/** Polls `url` until it answers 200; fails when `exited` settles first or after `timeoutMs`. */
async function waitFor200(url: string, exited: Promise<Exit>, what: string, timeoutMs: number): Promise<void> {
  let exit: Exit | undefined;
  void exited.then((e) => (exit = e));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exit) throw new Error(`${what} exited (code ${exit.code}, signal ${exit.signal}) before it was ready`);
    try {
      const reply = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await reply.arrayBuffer();
      if (reply.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${Math.round(timeoutMs / 1000)} s`);
    await sleep(100);
  }
}

export interface InstanceOptions {
  name: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  /** More environment for the instance (e.g. SEARCH_RATE_LIMIT); the topology's own settings win. */
  env?: Record<string, string>;
  /** Where this instance serves its metrics (METRICS_PORT), if anywhere: each instance its own. */
  metricsPort?: number;
  output: OutputSink;
  /** Called when the process exits without having been asked to stop, with how long it was up. */
  onCrash?: CrashHandler;
}

/** A child of the cluster that the cluster starts again when it dies on its own. */
export interface Supervised {
  readonly name: string;
  readonly isRunning: boolean;
  /** Starts it again and waits until it serves. */
  relaunch(): Promise<void>;
}

export type CrashHandler = (child: Supervised, exit: Exit, upForMs: number) => void;

/** One server process as `npm start` runs it; it can be stopped (drained or killed) and started again. */
export class Instance implements Supervised {
  private child: Child | undefined;
  private stopping = false;

  constructor(readonly options: InstanceOptions) {}

  get name(): string {
    return this.options.name;
  }

  get url(): string {
    return `http://${HOST}:${this.options.port}`;
  }

  get pid(): number | undefined {
    return this.child?.process.pid;
  }

  get isRunning(): boolean {
    return this.child !== undefined && this.child.process.exitCode === null && this.child.process.signalCode === null;
  }

  /** Starts the process; `ready()` waits until it serves. */
  start(): void {
    if (this.isRunning) throw new Error(`${this.name} is already running`);
    const start = startCommand();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...start.env,
      ...this.options.env,
      HOST,
      PORT: String(this.options.port),
      DATA_DIR: this.options.dataDir,
      DATABASE_URL: this.options.databaseUrl,
      TRUST_PROXY: 'true',
    };
    // One METRICS_PORT given to every instance was taken by the first, and the others exited.
    if (this.options.metricsPort) env.METRICS_PORT = String(this.options.metricsPort);
    else delete env.METRICS_PORT;
    // The instances share their signing keys through the database; one set by hand would have
    // to be the same everywhere, which is what the store already gives.
    delete env.JWT_SECRET;
    const child = spawnChild(this.name, process.execPath, start.args, env, this.options.output);
    const startedAt = Date.now();
    this.child = child;
    this.stopping = false;
    void child.exited.then((exit) => {
      if (!this.stopping && this.child === child) this.options.onCrash?.(this, exit, Date.now() - startedAt);
    });
  }

  relaunch(): Promise<void> {
    this.start();
    return this.ready();
  }

  /** Waits until GET /api/health/ready answers 200. */
  async ready(timeoutMs = 180_000): Promise<void> {
    if (!this.child) throw new Error(`${this.name} was never started`);
    await waitFor200(`${this.url}/api/health/ready`, this.child.exited, this.name, timeoutMs);
  }

  /**
   * SIGTERM drains: the instance stops being ready, finishes the requests in flight and exits
   * (SIGKILL after `graceMs`). SIGKILL is a crash.
   */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM', graceMs = 20_000): Promise<Exit> {
    this.stopping = true;
    if (!this.child) return { code: null, signal: null };
    return stopChild(this.child, signal, graceMs);
  }
}

export interface NginxOptions {
  /** nginx's prefix: its configuration, pid and temp files. */
  prefix: string;
  port: number;
  upstreamPorts: number[];
  /** An access log in the prefix (logs/access.log); off by default. */
  accessLog?: boolean;
  output: OutputSink;
  /** Called when nginx exits without having been asked to stop, with how long it was up. */
  onCrash?: CrashHandler;
}

/** deploy/nginx/cluster.conf.template with its fields filled in. */
export function renderNginxConfig(template: string, options: Omit<NginxOptions, 'output'>): string {
  const fields: Record<string, string> = {
    PREFIX: options.prefix,
    LISTEN: `${HOST}:${options.port}`,
    ACCESS_LOG: options.accessLog ? `${options.prefix}/logs/access.log` : 'off',
    UPSTREAM_SERVERS: options.upstreamPorts.map((port) => `    server ${HOST}:${port} max_fails=1 fail_timeout=3s;`).join('\n'),
    ERROR_HEADERS: Object.entries(SECURITY_HEADERS)
      .map(([name, value]) => {
        if (/["\\$]/.test(value)) throw new Error(`the security header ${name} cannot be written into nginx's configuration as it is`);
        return `      add_header ${name} "${value}" always;`;
      })
      .join('\n'),
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    const value = fields[name];
    if (value === undefined) throw new Error(`the nginx template has an unknown field {{${name}}}`);
    return value;
  });
}

/** Debian's nginx, in the foreground, as a child of this process. */
export class Nginx implements Supervised {
  readonly name = 'nginx';
  private child: Child | undefined;
  private stopping = false;
  /** Counts stop() calls: a start that a stop overtook does not spawn nginx after it. */
  private stops = 0;

  constructor(readonly options: NginxOptions) {}

  get url(): string {
    return `http://${HOST}:${this.options.port}`;
  }

  /** The master process's. */
  get pid(): number | undefined {
    return this.child?.process.pid;
  }

  get isRunning(): boolean {
    return this.child !== undefined && this.child.process.exitCode === null && this.child.process.signalCode === null;
  }

  relaunch(): Promise<void> {
    return this.start();
  }

  async start(timeoutMs = 15_000): Promise<void> {
    const stopsBefore = this.stops;
    const { prefix } = this.options;
    await mkdir(path.join(prefix, 'temp'), { recursive: true });
    await mkdir(path.join(prefix, 'logs'), { recursive: true });
    // Started as root, nginx's workers run as nobody: they must be able to reach the temp folders.
    await chmod(prefix, 0o755);
    const conf = path.join(prefix, 'nginx.conf');
    await writeFile(conf, renderNginxConfig(readFileSync(NGINX_TEMPLATE, 'utf8'), this.options));
    if (this.stops !== stopsBefore) throw new Error('nginx was stopped while it was starting');
    const child = spawnChild('nginx', NGINX_BIN, ['-p', prefix, '-c', conf, '-e', 'stderr', '-g', 'daemon off;'], process.env, this.options.output);
    const startedAt = Date.now();
    this.child = child;
    this.stopping = false;
    void child.exited.then((exit) => {
      if (!this.stopping && this.child === child) this.options.onCrash?.(this, exit, Date.now() - startedAt);
    });
    // Any answer from an instance through nginx will do; readiness is the instances' business.
    await waitFor200(`${this.url}/api/health/live`, this.child.exited, 'nginx', timeoutMs);
  }

  /** SIGQUIT: nginx stops accepting, finishes the requests in flight, exits. */
  async stop(graceMs = 10_000): Promise<Exit> {
    this.stopping = true;
    this.stops++;
    if (!this.child) return { code: null, signal: null };
    return stopChild(this.child, 'SIGQUIT', graceMs);
  }
}

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

const DATABASE_NAME = /^[a-z_][a-z0-9_]*$/;

/** The URL with its database name replaced. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The URL with its password hidden, for printing. */
export function redacted(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Creates `database` on the server `adminUrl` points at (dropping it first when asked). */
export async function createDatabase(adminUrl: string, database: string, options: { dropFirst?: boolean } = {}): Promise<string> {
  if (!DATABASE_NAME.test(database)) throw new Error(`not a plain database name: ${database}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if (options.dropFirst) await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${database}`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, database);
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  if (!DATABASE_NAME.test(database)) throw new Error(`not a plain database name: ${database}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export const LOCAL_POSTGRES = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * This machine's PostgreSQL 15 cluster, as CI uses it: started (as root) if it is not running,
 * the postgres user's password set to "postgres" where it is not yet, and `database` created if
 * missing. Returns the database's URL.
 */
export async function ensureLocalPostgres(database: string, say: (line: string) => void): Promise<string> {
  if (!(await canConnect(LOCAL_POSTGRES))) {
    if (process.getuid?.() !== 0) {
      throw new Error(`PostgreSQL does not answer at ${redacted(LOCAL_POSTGRES)}: set DATABASE_URL, or run this as root to start the local cluster`);
    }
    say('starting the local PostgreSQL (pg_ctlcluster 15 main start)');
    spawnSync('pg_ctlcluster', ['15', 'main', 'start'], { stdio: 'ignore' }); // fails harmlessly when it already runs
    const deadline = Date.now() + 30_000;
    while (spawnSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', '5432']).status !== 0) {
      if (Date.now() > deadline) throw new Error('PostgreSQL did not become ready within 30 s (pg_isready)');
      await sleep(500);
    }
    if (!(await canConnect(LOCAL_POSTGRES))) {
      // As .ci/run does: the postgres user connects over 127.0.0.1 with the password "postgres".
      const set = spawnSync('su', ['postgres', '-c', `psql -qc "ALTER USER postgres PASSWORD 'postgres'"`], { encoding: 'utf8' });
      if (set.status !== 0) throw new Error(`could not set the postgres user's password: ${set.stderr}`);
    }
  }
  return createDatabase(LOCAL_POSTGRES, database);
}
