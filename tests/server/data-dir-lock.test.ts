import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, FOREIGN_LOCK_STALE_MS, lockDataDir, pidNamespace, processStart } from '../../server/platform/store/data-dir-lock.ts';
import { writableByOthers } from '../fixtures/file-modes.ts';
import { DataFolderError, openEmbeddedDb } from '../../server/platform/store/db.ts';

async function folder(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'lock-')), 'pgdata');
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the embedded data folder lock', () => {
  it('lets one holder at a time open the folder, and the next one after release', async () => {
    const dir = await folder();
    const db = await openEmbeddedDb(dir);
    await expect(openEmbeddedDb(dir)).rejects.toThrow(DataDirLockedError);
    await expect(openEmbeddedDb(dir)).rejects.toMatchObject({ pid: process.pid, dir });
    await db.query('CREATE TABLE kept (n int)');
    await db.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const again = await openEmbeddedDb(dir);
    expect(await again.query('SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 0 }]);
    await again.close();
  }, 60_000);

  it('refuses, and leaves exactly as it is, a folder with files but no PG_VERSION: a damaged database is never replaced by an empty one', async () => {
    const dir = await folder();
    const db = await openEmbeddedDb(dir);
    await db.query('CREATE TABLE kept (n int)');
    await db.close();
    // One small file gone (a restore cut short, a careless clean-up): the rest is every vote and reader.
    const version = await readFile(path.join(dir, 'PG_VERSION'), 'utf8');
    await rm(path.join(dir, 'PG_VERSION'));
    const before = await readdir(dir, { recursive: true });
    await expect(openEmbeddedDb(dir)).rejects.toThrow(DataFolderError);
    await expect(openEmbeddedDb(dir)).rejects.toThrow(/holds \d+ entries but no PG_VERSION, so it is not a whole embedded database; it is left as it is/);
    expect(await readdir(dir, { recursive: true })).toEqual(before);
    // Put back, the database is all there.
    await writeFile(path.join(dir, 'PG_VERSION'), version);
    const again = await openEmbeddedDb(dir);
    expect(await again.query('SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 0 }]);
    await again.close();
  }, 60_000);

  it('refuses a link to a folder that is not there (a volume not mounted) and a file, and makes a database in an empty folder or through a link to one', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'lock-'));
    const link = path.join(parent, 'pgdata');
    await symlink(path.join(parent, 'volume'), link);
    await expect(openEmbeddedDb(link)).rejects.toThrow(/is a link to .*volume, which is not there \(a volume not mounted\?\)/);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    await mkdir(path.join(parent, 'volume'));
    const db = await openEmbeddedDb(link);
    await db.close();
    // The database is on the volume, and the link is still a link.
    expect(existsSync(path.join(parent, 'volume', 'PG_VERSION'))).toBe(true);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    const file = path.join(parent, 'file');
    await writeFile(file, 'not a database');
    await expect(openEmbeddedDb(file)).rejects.toThrow(/is not a folder: the embedded database cannot be kept there, and it is left as it is/);
    expect(await readFile(file, 'utf8')).toBe('not a database');
    const empty = path.join(parent, 'empty');
    await mkdir(empty);
    await (await openEmbeddedDb(empty)).close();
    expect(existsSync(path.join(empty, 'PG_VERSION'))).toBe(true);
  }, 60_000);

  it('says in one sentence why a damaged database would not open, where PGlite says only "Aborted()"', async () => {
    const dir = await folder();
    await (await openEmbeddedDb(dir)).close();
    await rm(path.join(dir, 'global', 'pg_control'));
    await expect(openEmbeddedDb(dir)).rejects.toThrow(DataFolderError);
    await expect(openEmbeddedDb(dir)).rejects.toThrow(new RegExp(`^The embedded database in ${dir} could not be opened: it may be damaged`));
    // Nothing is held: the lock was given back.
    expect(existsSync(`${dir}.lock`)).toBe(false);
  }, 60_000);

  it('lets no one else change the database’s files: made so, and closed at the next start where an older one left them open', async () => {
    const dir = await folder();
    const db = await openEmbeddedDb(dir);
    await db.close();
    expect(await writableByOthers(dir)).toEqual([]);
    // As a folder made before this was (initdb's 0666 files, 0755 folders) would be.
    for (const file of ['PG_VERSION', 'postgresql.conf', path.join('global', 'pg_control')]) await chmod(path.join(dir, file), 0o666);
    await chmod(path.join(dir, 'base'), 0o755);
    const again = await openEmbeddedDb(dir);
    await again.close();
    expect(await writableByOthers(dir)).toEqual([]);
  }, 60_000);

  it('takes over at once a lock whose owner died (a crash or kill -9)', async () => {
    const dir = await folder();
    await writeFile(`${dir}.lock`, `${await deadPid()}\n`);
    const lock = await lockDataDir(dir);
    expect((await readFile(`${dir}.lock`, 'utf8')).split('\n')[0]).toBe(String(process.pid));
    await lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over a lock naming its own pid that it did not take: a container’s server, pid 1 again after a crash', async () => {
    const dir = await folder();
    await writeFile(`${dir}.lock`, `${process.pid}\n`);
    const lock = await lockDataDir(dir);
    // While it holds the lock, a second opening in the same process is still refused.
    await expect(lockDataDir(dir)).rejects.toMatchObject({ pid: process.pid });
    await lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over a lock whose pid is in use again by a process that started after it, and refuses one whose owner still runs', async () => {
    const child = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const started = processStart(child.pid!);
      expect(started).toMatch(/^[0-9a-f-]{36}:\d+$/);
      const dir = await folder();
      await writeFile(`${dir}.lock`, `${child.pid}\n${started}\n`);
      await expect(lockDataDir(dir)).rejects.toMatchObject({ pid: child.pid });
      // The same pid, but the lock's owner started at another time: the pid was given out again.
      await writeFile(`${dir}.lock`, `${child.pid}\n${started!.replace(/:\d+$/, ':1')}\n`);
      const lock = await lockDataDir(dir);
      expect((await readFile(`${dir}.lock`, 'utf8')).split('\n')[0]).toBe(String(process.pid));
      await lock.release();
    } finally {
      child.kill();
    }
  });

  it('holds a lock from another pid namespace (another container on the same volume) while its owner touches it, and takes it over once it stops', async () => {
    expect(pidNamespace()).toMatch(/^pid:\[\d+\]$/);
    const dir = await folder();
    // Pid 1 of another container, alive or not: its pid and start time mean nothing here.
    await writeFile(`${dir}.lock`, `1\nboot:123\npid:[1]\n`);
    await expect(lockDataDir(dir)).rejects.toMatchObject({ pid: 1, foreign: true });
    const untouched = new Date(Date.now() - FOREIGN_LOCK_STALE_MS - 1_000);
    await utimes(`${dir}.lock`, untouched, untouched);
    const lock = await lockDataDir(dir, { touchMs: 20 });
    // Its own lock it keeps touching, so that other containers see it held.
    await utimes(`${dir}.lock`, untouched, untouched);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(Date.now() - (await stat(`${dir}.lock`)).mtimeMs).toBeLessThan(FOREIGN_LOCK_STALE_MS);
    expect((await readFile(`${dir}.lock`, 'utf8')).split('\n')[2]).toBe(pidNamespace());
    await lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('waits for a command (npm run users) holding the folder to finish, and gives up on one that holds it too long', async () => {
    const dir = await folder();
    const command = spawn('sleep', ['1.5']);
    await new Promise((resolve) => command.once('spawn', resolve));
    const finished = new Promise((resolve) => command.once('exit', resolve));
    await writeFile(`${dir}.lock`, `${command.pid}\n${processStart(command.pid!)}\n${pidNamespace()}\ncommand\n`);
    const lock = await lockDataDir(dir);
    // Taken only once the command had gone, and then as a server's.
    expect(command.exitCode).toBe(0);
    expect((await readFile(`${dir}.lock`, 'utf8')).split('\n')).toEqual([String(process.pid), processStart(process.pid), pidNamespace(), 'server', '']);
    await lock.release();
    await finished;

    const slow = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => slow.once('spawn', resolve));
      await writeFile(`${dir}.lock`, `${slow.pid}\n${processStart(slow.pid!)}\n${pidNamespace()}\ncommand\n`);
      await expect(lockDataDir(dir, { commandWaitMs: 300 })).rejects.toMatchObject({ pid: slow.pid, holder: 'command' });
      // A server's lock is refused at once, as before: a server does not finish by itself.
      await writeFile(`${dir}.lock`, `${slow.pid}\n${processStart(slow.pid!)}\n${pidNamespace()}\nserver\n`);
      await expect(lockDataDir(dir)).rejects.toMatchObject({ pid: slow.pid, holder: 'server' });
    } finally {
      slow.kill();
    }
  });

  it('is held by one process at a time, however many take and release it at once', async () => {
    const dir = await folder();
    const log = path.join(path.dirname(dir), 'held.log');
    const holders = Array.from({ length: 8 }, (_, i) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/lock-holder.ts', dir, '80', log, `p${i}`], { stdio: 'inherit' });
        child.once('exit', resolve);
      }),
    );
    expect(await Promise.all(holders)).toEqual(Array(8).fill(0));
    const holds = (await readFile(log, 'utf8')).trim().split('\n');
    expect(holds).toHaveLength(640);
    // No hold found another process holding it too (each checks, tests/fixtures/lock-holder.ts).
    expect(holds.filter((line) => !line.endsWith(' held'))).toEqual([]);
  }, 120_000);

  it('never removes a lock it does not hold', async () => {
    const dir = await folder();
    const lock = await lockDataDir(dir);
    await writeFile(`${dir}.lock`, '1\n'); // taken over by another (live) process
    await lock.release();
    expect((await readFile(`${dir}.lock`, 'utf8')).trim()).toBe('1');
    await expect(lockDataDir(dir)).rejects.toMatchObject({ pid: 1 });
  });
});
