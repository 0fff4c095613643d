import { link, readFile, rm, writeFile } from 'node:fs/promises';

/** Another live process has the embedded database open. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`${dir} is in use by process ${pid}`);
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(lockFile: string): Promise<number> {
  return Number((await readFile(lockFile, 'utf8').catch(() => '')).trim()) || 0;
}

/**
 * One process at a time may open a PGlite folder: two would each keep their own copy of the
 * database in memory and overwrite each other's writes (or abort). The lock is a file beside the
 * folder naming the owner's pid, created whole and atomically (a hard link of a written file).
 * A lock whose owner has died (a crash, kill -9) is taken over at once, so a restart never waits;
 * a lockfile library's time-based staleness would make it wait.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const lockFile = `${dir}.lock`;
  const draft = `${lockFile}.${process.pid}`;
  await writeFile(draft, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (;;) {
      try {
        await link(draft, lockFile);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await ownerOf(lockFile);
      if (owner && isAlive(owner)) throw new DataDirLockedError(dir, owner);
      await rm(lockFile, { force: true }); // its owner is gone
    }
  } finally {
    await rm(draft, { force: true });
  }
  return {
    async release() {
      if ((await ownerOf(lockFile)) === process.pid) await rm(lockFile, { force: true });
    },
  };
}
