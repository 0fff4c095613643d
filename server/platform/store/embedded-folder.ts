import { existsSync } from 'node:fs';
import { access, constants, cp, lstat, mkdir, readdir, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { closeDatabaseFolder, openToReaders } from './private-dir.ts';

// The embedded database's folder (DATA_DIR/pgdata): made whole or not at all (from the build's
// template, or by initdb), refused when it is not a whole database, explained when it will not open.

/**
 * Postgres's 128 MB default buffer cache is sized for a server of its own; the embedded store
 * holds a few thousand rows, and 16 MB keeps the whole process well under 300 MB.
 */
export const EMBEDDED_SETTINGS = ['shared_buffers=16MB', 'work_mem=2MB', 'maintenance_work_mem=16MB', 'wal_buffers=1MB'];

/** Creates a new PGlite data folder in a worker thread, so that initdb's memory is given back. */
async function createDataDirInWorker(dataDir: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./create-embedded-worker.mjs', import.meta.url), {
      workerData: { dataDir, settings: EMBEDDED_SETTINGS },
    });
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`creating ${dataDir} failed (${code})`))));
  });
}

/**
 * An empty embedded database made once by the build (scripts/build-server.ts), beside the built
 * server: a new DATA_DIR starts as a copy of it instead of running initdb (6.7 s and 9.9 s of
 * CPU time here). Run from the sources there is none, and initdb runs.
 */
function embeddedTemplateDir(): string {
  // Another one made beforehand, where EMBEDDED_TEMPLATE_DIR names it: the tests make one per run
  // for the commands and stores they run from the sources.
  if (process.env.EMBEDDED_TEMPLATE_DIR) return process.env.EMBEDDED_TEMPLATE_DIR;
  // Worked out when a folder is made, not on import: the client's tests (jsdom) import this
  // module through server/platform/http/errors.ts, and there a module's URL is not a file's.
  // Beside the bundle this module is built into (dist-server/main.js): the path is the built
  // server's, not this file's (from the sources it names nothing, and initdb runs).
  return fileURLToPath(new URL('./pgdata-template', import.meta.url));
}

/**
 * Makes the build's empty database, in `dir` (which must not exist), as a data folder is made
 * without one: readable by any user the server may run as, writable by none but the builder.
 */
export async function createEmbeddedTemplate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await createDataDirInWorker(dir);
  await openToReaders(dir);
}

/**
 * A new PGlite data folder in `dataDir`: a copy of the build's template where there is one, else
 * made by initdb. Either way it appears whole or not at all: it is made beside `dataDir` and
 * renamed into place, so a start cut short leaves nothing that looks like a database.
 */
export async function createDataDir(dataDir: string): Promise<void> {
  const draft = `${dataDir}.new-${process.pid}`;
  const template = embeddedTemplateDir();
  if (existsSync(path.join(template, 'PG_VERSION'))) {
    await cp(template, draft, { recursive: true });
  } else {
    await mkdir(draft, { recursive: true });
    await createDataDirInWorker(draft);
  }
  // The template is open to readers (any user may start the build): its copy is closed.
  await closeDatabaseFolder(draft);
  // Only ever an empty folder (databaseFolderState), or none.
  await rm(dataDir, { recursive: true, force: true });
  await rename(draft, dataDir);
}

/**
 * The embedded database's folder is not a whole database, or will not open: said in one
 * sentence, and the folder left as it is. Not the operator's setting to correct (exit 1).
 */
export class DataFolderError extends Error {}

/**
 * What is at `dataDir`: a database (it has PG_VERSION), or room for a new one (nothing, or an
 * empty folder), as the real folder's path (a link to a folder is followed). Anything else is
 * refused, and left exactly as it is: a folder with files but no PG_VERSION (a damaged
 * database, a restore cut short), a file, or a link to nothing (a volume not mounted) is not
 * made into an empty database, which would lose every vote, reader and key in it.
 */
export async function databaseFolderState(dataDir: string): Promise<{ state: 'database' | 'none'; folder: string }> {
  let found;
  try {
    found = await lstat(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'none', folder: dataDir };
    throw error;
  }
  let folder = dataDir;
  if (found.isSymbolicLink()) {
    try {
      folder = await realpath(dataDir);
      found = await stat(folder);
    } catch {
      throw new DataFolderError(
        `${dataDir} is a link to ${await readlink(dataDir)}, which is not there (a volume not mounted?): ` +
          'the embedded database is not opened, and no new one is made in its place',
      );
    }
  }
  if (!found.isDirectory()) {
    throw new DataFolderError(`${dataDir} is not a folder: the embedded database cannot be kept there, and it is left as it is`);
  }
  if (existsSync(path.join(folder, 'PG_VERSION'))) return { state: 'database', folder };
  const files = await readdir(folder);
  if (files.length === 0) return { state: 'none', folder };
  throw new DataFolderError(
    `${dataDir} holds ${files.length === 1 ? '1 entry' : `${files.length} entries`} but no PG_VERSION, so it is not a whole ` +
      'embedded database; it is left as it is. Restore it from a backup, or move it aside to start with a new, empty database',
  );
}

/**
 * Why the embedded database in `dataDir` would not open, in one sentence: PGlite itself says
 * only "Aborted()". A file this user may not read or write (left by a command run as root) is
 * named; otherwise the folder is damaged.
 */
export async function openFailure(dataDir: string, error: unknown): Promise<DataFolderError> {
  const stuck = await firstInaccessible(dataDir);
  const why = stuck
    ? `${stuck} cannot be read and written by this user (was a command run as another user, such as root?)`
    : `it may be damaged (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); restore it from a backup`;
  return new DataFolderError(`The embedded database in ${dataDir} could not be opened: ${why}`);
}

async function firstInaccessible(dir: string): Promise<string | undefined> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    const file = path.join(entry.parentPath, entry.name);
    const ok = await access(file, constants.R_OK | constants.W_OK).then(
      () => true,
      () => false,
    );
    if (!ok) return file;
  }
  return undefined;
}

/**
 * Deletes the drafts (`pgdata.new-PID`) that starts cut short left beside `dataDir`, whatever
 * their process: called under the folder's lock, so no live process is still making one. A
 * server that crash-looped on its first start left one of 17 to 39 MB per try.
 */
export async function removeDrafts(dataDir: string): Promise<void> {
  const prefix = `${path.basename(dataDir)}.new-`;
  const parent = path.dirname(dataDir);
  for (const name of await readdir(parent)) {
    if (name.startsWith(prefix)) await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

/** Where the embedded database lives in DATA_DIR. */
export function embeddedFolder(dataDir: string): string {
  return `${dataDir}/pgdata`;
}
