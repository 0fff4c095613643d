import { chmod, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config/config.ts';

/**
 * Makes `dir` (DATA_DIR: the embedded database with its password hashes and signing keys, the
 * admin socket) reachable by this user only, as PostgreSQL does its data folder: created 0700, and
 * an existing one open to others closed to 0700. Says what it was when it had to close it.
 */
export async function makePrivateDir(dir: string): Promise<{ wasMode?: string }> {
  await makeDirs(dir, 0o700);
  const { mode, uid } = await stat(dir);
  if ((mode & 0o077) === 0) return {};
  // A folder another user owns (given by the operator on purpose) is theirs to set.
  if (process.getuid && uid !== process.getuid()) return {};
  await chmod(dir, 0o700);
  return { wasMode: (mode & 0o777).toString(8) };
}

/**
 * makePrivateDir for DATA_DIR, and a file written there and deleted: a folder that cannot be made,
 * is a file, or takes no files (another user's, read-only, /sys) is the operator's setting to fix,
 * said before the start spends seconds on the models.
 */
export async function makeDataDir(dataDir: string): Promise<{ wasMode?: string }> {
  try {
    const made = await makePrivateDir(dataDir);
    const probe = path.join(dataDir, `.writable-${process.pid}`);
    await writeFile(probe, '', { mode: 0o600 });
    await rm(probe, { force: true });
    return made;
  } catch (error) {
    throw new ConfigError(`DATA_DIR ${dataDir} cannot be used: ${(error as Error).message}`);
  }
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * `mkdir -p`, a level at a time. Node 20's own recursive mkdir never returns where a parent
 * refuses new folders with ENOENT (under /proc): a DATA_DIR there held the start for good.
 */
async function makeDirs(dir: string, mode: number): Promise<void> {
  try {
    await mkdir(dir, { mode });
    return;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return mustBeFolder(dir, error);
    const parent = path.dirname(dir);
    if (codeOf(error) !== 'ENOENT' || parent === dir) throw error;
  }
  await makeDirs(path.dirname(dir), mode);
  await mkdir(dir, { mode }).catch((error: unknown) => {
    if (codeOf(error) !== 'EEXIST') throw error;
    return mustBeFolder(dir, error);
  });
}

/** What is already there must be a folder: a file in its place is refused, as Node's own recursive mkdir refused it. */
async function mustBeFolder(dir: string, exists: unknown): Promise<void> {
  if (!(await stat(dir)).isDirectory()) throw exists;
}

/**
 * Takes group's and others' access away from everything under `dir`, and from `dir` itself, as
 * PostgreSQL keeps its data folder (files 0600, folders 0700). PGlite's initdb leaves its files
 * 0666: a copy or backup of the folder (cp -a, tar) would keep them writable by anyone. What
 * another user owns is theirs to set, and left as it is.
 */
async function closeToOthers(dir: string): Promise<void> {
  await closeOne(dir);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) await closeToOthers(at);
    else if (entry.isFile()) await closeOne(at);
  }
}

async function closeOne(at: string): Promise<void> {
  const { mode, uid } = await stat(at);
  if ((mode & 0o077) === 0 || (process.getuid && uid !== process.getuid())) return;
  await chmod(at, mode & 0o700).catch((error: unknown) => {
    if (codeOf(error) !== 'EPERM') throw error;
  });
}

/**
 * A PGlite folder closed to others where it is not yet (PG_VERSION tells: initdb's folders, a
 * template or a folder from before the files were closed), at the cost of one stat where it is.
 */
export async function closeDatabaseFolder(dir: string): Promise<void> {
  if ((await stat(path.join(dir, 'PG_VERSION'))).mode & 0o077) await closeToOthers(dir);
}

/**
 * Files readable by every user and writable by none but the owner (0644, folders 0755): for the
 * build's empty database template, which holds nothing of anyone's, so that a server run as
 * another user than the one who built it can copy it (each copy is closed as it is made).
 */
export async function openToReaders(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) await openToReaders(at);
    else if (entry.isFile()) await chmod(at, 0o644);
  }
}
