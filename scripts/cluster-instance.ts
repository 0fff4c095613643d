import { startCommand } from './start-command.ts';
import { HOST, spawnChild, stopChild, waitFor200, type Child, type CrashHandler, type Exit, type OutputSink, type Supervised } from './cluster-processes.ts';

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
