import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../scripts/server-process.ts';

const run = promisify(execFile);

/** A PostgreSQL cluster of the test's own, which it may stop and restart without disturbing others. */
export interface PrivatePostgres {
  url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops every process of the cluster (SIGSTOP): connections stay open, and nothing answers. */
  freeze(): Promise<void>;
  /** Lets a frozen cluster go on (SIGCONT). */
  thaw(): Promise<void>;
  destroy(): Promise<void>;
}

async function postgresBin(): Promise<string> {
  const root = '/usr/lib/postgresql';
  const versions = (await readdir(root)).sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL under ${root}`);
  return path.join(root, versions[0]!, 'bin');
}

/** initdb and start a throwaway cluster on a free loopback port (as the postgres user when we are root). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBin();
  const dir = await mkdtemp(path.join(tmpdir(), 'private-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout), Number(gid));
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const ctl = (...args: string[]) => pg('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', options, ...args]);
  await ctl('start');
  /** The postmaster and its children (backends, checkpointer, …): the postmaster's pid is postmaster.pid's first line. */
  const signalAll = async (signal: 'STOP' | 'CONT') => {
    const postmaster = Number((await readFile(path.join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    if (signal === 'STOP') process.kill(postmaster, 'SIGSTOP');
    await run('pkill', [`-${signal}`, '-P', String(postmaster)]);
    if (signal === 'CONT') process.kill(postmaster, 'SIGCONT');
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async () => void (await ctl('restart', '-m', 'fast')),
    stop: async () => void (await ctl('stop', '-m', 'fast')),
    start: async () => void (await ctl('start')),
    freeze: () => signalAll('STOP'),
    thaw: () => signalAll('CONT'),
    async destroy() {
      await signalAll('CONT').catch(() => undefined);
      await ctl('stop', '-m', 'immediate').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
