import { readFileSync } from 'node:fs';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

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

/**
 * When a process started, as this machine's boot and the clock tick it began at
 * (`/proc/<pid>/stat`'s 22nd field): a pid names one process only together with this, as a pid is
 * used again once its process has gone. Undefined where there is no /proc (macOS) or no process.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; fields 3 on follow it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return fields[19] ? `${boot}:${fields[19]}` : undefined;
  } catch {
    return undefined;
  }
}

/** The lock's owner: its pid and, where the lock says it, when that process started. */
interface Owner {
  pid: number;
  started?: string;
}

async function ownerOf(lockFile: string): Promise<Owner> {
  const [pid, started] = (await readFile(lockFile, 'utf8').catch(() => '')).split('\n').map((line) => line.trim());
  return { pid: Number(pid) || 0, ...(started ? { started } : {}) };
}

/** Lock files this process holds, so that one naming its pid but left by an earlier process with that pid is told apart. */
const heldHere = new Set<string>();

/**
 * Whether the process the lock names still holds it. A lock naming this process's pid that this
 * process did not take was left by an earlier one given the same pid (a container's server is
 * always pid 1); a live process that started at another time than the lock says is not its owner
 * either. A lock of the older form, a pid alone, is held while that pid lives.
 */
function isHeld(lockFile: string, owner: Owner): boolean {
  if (!owner.pid) return false;
  if (owner.pid === process.pid) return heldHere.has(lockFile);
  if (!isAlive(owner.pid)) return false;
  const started = owner.started === undefined ? undefined : processStart(owner.pid);
  return started === undefined || started === owner.started;
}

/**
 * One process at a time may open a PGlite folder: two would each keep their own copy of the
 * database in memory and overwrite each other's writes (or abort). The lock is a file beside the
 * folder naming the owner (its pid, and when it started where /proc says), created whole and
 * atomically (a hard link of a written file). A lock whose owner has gone (a crash, kill -9, a
 * container restarted) is taken over at once, so a restart never waits, even where the pid it
 * names is in use again; a lockfile library's time-based staleness would make it wait.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const lockFile = `${path.resolve(dir)}.lock`;
  const draft = `${lockFile}.${process.pid}`;
  const started = processStart(process.pid);
  await writeFile(draft, `${process.pid}\n${started ?? ''}\n`, { mode: 0o600 });
  try {
    for (;;) {
      try {
        await link(draft, lockFile);
        heldHere.add(lockFile);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await ownerOf(lockFile);
      if (isHeld(lockFile, owner)) throw new DataDirLockedError(dir, owner.pid);
      await rm(lockFile, { force: true }); // its owner is gone
    }
  } finally {
    await rm(draft, { force: true });
  }
  return {
    async release() {
      if (!heldHere.delete(lockFile)) return;
      if ((await ownerOf(lockFile)).pid === process.pid) await rm(lockFile, { force: true });
    },
  };
}
