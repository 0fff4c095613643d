/**
 * nginx in front of the cluster's instances: its configuration, made from
 * deploy/nginx/cluster.conf.template, and Debian's nginx run in the foreground, with its prefix,
 * configuration, pid and temp files in a folder of its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SECURITY_HEADERS } from '../server/platform/http/security-headers.ts';
import { HOST, spawnChild, stopChild, waitFor200, type Child, type CrashHandler, type Exit, type OutputSink, type Supervised } from './cluster-processes.ts';
import { REPO_ROOT } from './start-command.ts';

export const NGINX_BIN = process.env.NGINX_BIN || '/usr/sbin/nginx';
export const NGINX_TEMPLATE = path.join(REPO_ROOT, 'deploy', 'nginx', 'cluster.conf.template');

export function nginxInstalled(): boolean {
  return existsSync(NGINX_BIN);
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
