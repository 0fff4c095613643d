import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { link, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Who holds the folder: a server, for as long as it runs, or a command (`npm run users`, `npm run
 * keys`), for the second or two its change takes. A lock of the older form says nothing: a server.
 */
export type LockHolder = 'server' | 'command';

/** Another live process has the embedded database open. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
    /** Whether that process is in another pid namespace (another container): its pid means nothing here. */
    readonly foreign = false,
    readonly holder: LockHolder = 'server',
  ) {
    super(`${dir} is in use by ${holder === 'command' ? 'a command, ' : ''}process ${pid}${foreign ? ' in another pid namespace' : ''}`);
  }
}

/** Who takes the lock, and whom to tell when it waits for a command. */
export interface LockOptions {
  holder?: LockHolder;
  /** Told once when a command holds the folder and this begins to wait for it. */
  onWait?: (pid: number) => void;
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

/**
 * The pid namespace this process lives in (`pid:[4026531836]`): a pid and its start time name a
 * process only within one. A container has its own, new at every start. Undefined without /proc.
 */
export function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/** The lock's owner: its pid and, where the lock says them, when that process started and in which pid namespace. */
interface Owner {
  pid: number;
  started?: string;
  namespace?: string;
  /** When the lock file was last touched: its owner touches it every few seconds while it runs. */
  touchedMs: number;
  holder: LockHolder;
}

/** The lock's owner, or undefined when there is no lock file (its holder has just released it). */
async function ownerOf(lockFile: string): Promise<Owner | undefined> {
  const [text, touchedMs] = await Promise.all([
    readFile(lockFile, 'utf8').catch((error: unknown) => ((error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : '')),
    stat(lockFile).then((s) => s.mtimeMs, () => 0),
  ]);
  if (text === undefined) return undefined;
  const [pid, started, namespace, holder] = text.split('\n').map((line) => line.trim());
  return {
    pid: Number(pid) || 0,
    ...(started ? { started } : {}),
    ...(namespace ? { namespace } : {}),
    touchedMs,
    holder: holder === 'command' ? 'command' : 'server',
  };
}

/** How often the holder touches its lock, and how long untouched a lock from another pid namespace is held. */
export const LOCK_TOUCH_MS = 5_000;
export const FOREIGN_LOCK_STALE_MS = 20_000;
/** How long an opening waits for a command holding the folder to finish before it gives up. */
export const COMMAND_WAIT_MS = 30_000;

/**
 * Lock files this process holds, so that one naming its pid but left by an earlier process with
 * that pid is told apart. Per module instance: a worker thread (same pid) must not lock the
 * folder too, as it would see the main thread's lock as an earlier process's.
 */
const heldHere = new Set<string>();

/** Whether the lock's owner is in another pid namespace than ours (where both are known). */
function isForeign(owner: Owner, namespace: string | undefined): boolean {
  return owner.namespace !== undefined && namespace !== undefined && owner.namespace !== namespace;
}

/**
 * Whether the process the lock names still holds it.
 * - From another pid namespace (another container on the same volume, or this container before
 *   its restart), pids say nothing here: the lock is held while its owner keeps touching it.
 * - A lock naming this process's pid that this process did not take was left by an earlier one
 *   given the same pid (a container's server is always pid 1).
 * - A live process that started at another time than the lock says is not its owner either.
 * - A lock of the older form, a pid alone, is held while that pid lives.
 */
function isHeld(lockFile: string, owner: Owner, namespace: string | undefined, nowMs: number): boolean {
  if (!owner.pid) return false;
  if (isForeign(owner, namespace)) return nowMs - owner.touchedMs < FOREIGN_LOCK_STALE_MS;
  if (owner.pid === process.pid) return heldHere.has(lockFile);
  if (!isAlive(owner.pid)) return false;
  const started = owner.started === undefined ? undefined : processStart(owner.pid);
  return started === undefined || started === owner.started;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A takeover file older than this was left by a process that died taking over a lock. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * Removes a lock whose owner is gone, one process at a time, checking again once it is the one:
 * two processes finding the same stale lock would otherwise each remove it, the second removing
 * the lock the first had just taken, and both would hold the folder. The turn is a second file
 * made the same atomic way (`<lock>.takeover`), held for a few milliseconds.
 */
async function removeStaleLock(lockFile: string, draft: string, namespace: string | undefined): Promise<void> {
  const takeover = `${lockFile}.takeover`;
  try {
    await link(draft, takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const madeMs = await stat(takeover).then((s) => s.mtimeMs, () => Date.now());
    if (Date.now() - madeMs > TAKEOVER_STALE_MS) await rm(takeover, { force: true });
    else await sleep(5);
    return; // the caller tries the lock again
  }
  try {
    const owner = await ownerOf(lockFile);
    if (owner && !isHeld(lockFile, owner, namespace, Date.now())) await rm(lockFile, { force: true });
  } finally {
    await rm(takeover, { force: true });
  }
}

/**
 * One process at a time may open a PGlite folder: two would each keep their own copy of the
 * database in memory and overwrite each other's writes (or abort). The lock is a file beside the
 * folder naming the owner (its pid and, where /proc says, when it started and its pid namespace),
 * created whole and atomically (a hard link of a written file), and touched every 5 s while held.
 * A lock whose owner has gone (a crash, kill -9) is taken over at once, so a restart never waits,
 * even where the pid it names is in use again; one from another pid namespace (a container
 * before its restart) once it has gone 20 s untouched. A folder a command holds is waited for (up
 * to 30 s): a server (re)started while `npm run users` makes its change starts a moment later.
 */
export async function lockDataDir(dir: string, options: LockOptions & { touchMs?: number; commandWaitMs?: number } = {}): Promise<DataDirLock> {
  const lockFile = `${path.resolve(dir)}.lock`;
  // Named apart from any other process's draft, in this container or another.
  const draft = `${lockFile}.${process.pid}-${randomBytes(6).toString('hex')}`;
  const namespace = pidNamespace();
  const holder = options.holder ?? 'server';
  await writeFile(draft, `${process.pid}\n${processStart(process.pid) ?? ''}\n${namespace ?? ''}\n${holder}\n`, { mode: 0o600 });
  const waitUntil = Date.now() + (options.commandWaitMs ?? COMMAND_WAIT_MS);
  let waited = false;
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
      if (!owner) continue; // released meanwhile: try again
      if (isHeld(lockFile, owner, namespace, Date.now())) {
        if (owner.holder === 'command' && Date.now() < waitUntil) {
          if (!waited) options.onWait?.(owner.pid);
          waited = true;
          await sleep(100);
          continue;
        }
        throw new DataDirLockedError(dir, owner.pid, isForeign(owner, namespace), owner.holder);
      }
      await removeStaleLock(lockFile, draft, namespace); // its owner is gone
    }
  } finally {
    await rm(draft, { force: true });
  }
  // Touched so that a process in another pid namespace can tell it is still held.
  const touch = setInterval(() => {
    const now = new Date();
    utimes(lockFile, now, now).catch(() => undefined);
  }, options.touchMs ?? LOCK_TOUCH_MS);
  touch.unref();
  return {
    async release() {
      clearInterval(touch);
      if (!heldHere.delete(lockFile)) return;
      if ((await ownerOf(lockFile))?.pid === process.pid) await rm(lockFile, { force: true });
    },
  };
}
