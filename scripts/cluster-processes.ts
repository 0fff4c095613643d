/**
 * The cluster's child processes (scripts/cluster-topology.ts): each spawned in a process group of
 * its own, its output forwarded a line at a time, stopped with a grace time, waited for until it
 * answers; and what a supervisor needs of one to start it again when it dies on its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { REPO_ROOT } from './start-command.ts';

/** Every child listens on the loopback interface only. */
export const HOST = '127.0.0.1';

/** Where a child's output goes, a line at a time, with the child's name. */
export type OutputSink = (name: string, line: string) => void;

/** Writes each line to this process's stdout, prefixed with the child's name. */
export const prefixedOutput: OutputSink = (name, line) => {
  process.stdout.write(`[${name}] ${line}\n`);
};

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

export interface Child {
  process: ChildProcess;
  exited: Promise<Exit>;
}

/**
 * Spawns a child in a process group of its own, so that a Ctrl-C at the terminal reaches only
 * this process, which then stops the children in order (nginx first, then the instances).
 */
export function spawnChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, output: OutputSink): Child {
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
export async function stopChild(child: Child, signal: NodeJS.Signals, graceMs: number): Promise<Exit> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return child.exited;
  child.process.kill(signal);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  const exit = await child.exited;
  clearTimeout(timer);
  return exit;
}

/** Polls `url` until it answers 200; fails when `exited` settles first or after `timeoutMs`. */
export async function waitFor200(url: string, exited: Promise<Exit>, what: string, timeoutMs: number): Promise<void> {
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

/** A child of the cluster that the cluster starts again when it dies on its own. */
export interface Supervised {
  readonly name: string;
  readonly isRunning: boolean;
  /** Starts it again and waits until it serves. */
  relaunch(): Promise<void>;
}

export type CrashHandler = (child: Supervised, exit: Exit, upForMs: number) => void;
