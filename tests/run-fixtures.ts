import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedDbFromImage, type Db } from '../server/platform/store/db.ts';
import { CORPUS_FILE } from './repo-files.ts';

/**
 * What many tests start from, made by tests/fixtures/prepare-run.ts in a process of its own (whose
 * memory goes when it ends): the weight-free models fitted on the book, an empty embedded
 * database, and a migrated one. They take about a minute to make, so they are kept on disk
 * between runs, in a folder named by the hash of everything they are made from (below): a
 * change to any of it is a new hash and a new folder, never a stale one. Vitest's global setup
 * only works out that folder and names it in the environment, which its test workers, and every
 * process they start, inherit; the first test that needs the fixtures makes them there, once for
 * the whole run (a lock beside the folder: the other workers wait for it), so a run of tests
 * that need none (most of the client's) never waits for them. The helpers below wait for them;
 * so does every server and e2e test file (tests/await-fixtures.ts, their setup file). Helpers
 * used outside a test run (the bench) find nothing named and make their own, as before.
 */
const PREPARED = 'ALCHEMY_TESTS_PREPARED';
/**
 * The server's own setting (server/platform/store/db.ts): an empty embedded database that a new DATA_DIR
 * copies instead of running initdb. Beside the built server there is one; the commands and
 * stores the tests run from the sources are pointed at the run's.
 */
const EMPTY_TEMPLATE = 'EMBEDDED_TEMPLATE_DIR';

const REPO = path.resolve(import.meta.dirname, '..');
/** Where the fixtures are kept between runs (ALCHEMY_TESTS_CACHE to move it), one folder per hash. */
const CACHE = path.resolve(process.env.ALCHEMY_TESTS_CACHE || path.join(REPO, 'node_modules/.cache/alchemy-tests'));
/** A kept folder no run has used for this long goes (other branches' hashes pile up otherwise). */
const UNUSED_FOR_MS = 3 * 24 * 3600 * 1000;

/**
 * What the fixtures are made from, every file of it: the book and its glosses, the code that
 * fits the models (the search and book modules, common/, what of the platform they and the store
 * use: the store with its migrations, config, util, caches, log; not HTTP), the evaluation's
 * questions and the code that folds them (the dev part's models are fitted without each fold's
 * asked questions: server/eval/asked.ts), the making script,
 * the installed packages (their lock) and Node's version.
 */
const INPUTS = [
  'corpus',
  'common',
  'server/modules/search',
  'server/modules/book',
  'server/platform/store',
  'server/platform/config',
  'server/platform/util',
  'server/platform/caches',
  'server/platform/log.ts',
  'server/eval/asked.ts',
  'server/eval/evaluate.ts',
  'server/eval/metrics.ts',
  'server/eval/questions.json',
  'tests/fixtures/prepare-run.ts',
  'tests/run-fixtures.ts',
  'tests/repo-files.ts',
  'package-lock.json',
];

async function filesUnder(entry: string): Promise<string[]> {
  const info = await stat(entry);
  if (!info.isDirectory()) return [entry];
  const names = (await readdir(entry)).sort();
  return (await Promise.all(names.map((name) => filesUnder(path.join(entry, name))))).flat();
}

/** The hash of the fixtures' inputs: each file's path and content, in a fixed order. */
export async function fixturesHash(): Promise<string> {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  const files = [...(await Promise.all(INPUTS.map((entry) => filesUnder(path.join(REPO, entry))))).flat(), CORPUS_FILE];
  for (const file of files) hash.update(`${path.relative(REPO, file)}\n`).update(await readFile(file)).update('\n');
  return hash.digest('hex').slice(0, 24);
}

/** Makes the fixtures into `folder` (new), by tests/fixtures/prepare-run.ts. */
async function prepare(folder: string): Promise<void> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/prepare-run.ts', folder], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(path.join(folder, 'ready'))) throw new Error(`The tests' fixtures could not be made (exit ${code}):\n${output}`);
}

/** Removes the kept folders of other hashes that no run has used for UNUSED_FOR_MS, and half-made ones as old. */
async function pruneOthers(keep: string): Promise<void> {
  const cache = path.dirname(keep);
  for (const name of await readdir(cache).catch(() => [] as string[])) {
    const folder = path.join(cache, name);
    if (folder === keep) continue;
    const used = await stat(path.join(folder, 'ready')).catch(() => stat(folder).catch(() => null));
    if (used && Date.now() - used.mtimeMs > UNUSED_FOR_MS) await rm(folder, { recursive: true, force: true });
  }
}

/** Beside a hash's folder while one process makes it: the others wait for it (its pid inside). */
const lockOf = (folder: string) => `${folder}.lock`;
/** A lock that names no pid after this long was left by a process that died while taking it. */
const LOCK_NAMELESS_MS = 30_000;

/** Whether the process that took `lock` is gone without removing it (killed, or crashed). */
async function abandoned(lock: string): Promise<boolean> {
  const pid = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => ''));
  if (!pid) {
    const taken = await stat(lock).catch(() => null);
    return taken !== null && Date.now() - taken.mtimeMs > LOCK_NAMELESS_MS;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Makes the fixtures into `folder` unless they are there: one process at a time (the one that
 * takes the lock; the rest wait for its `ready`), into a folder of its own, then renamed into
 * place, so that a run cut short leaves nothing half made. `make` fills the folder it is given and
 * ends with its `ready` file (tests/fixtures/prepare-run.ts; run-fixtures-lock.test.ts gives its own).
 */
export async function makeOnce(folder: string, make: (into: string) => Promise<void> = prepare): Promise<void> {
  const lock = lockOf(folder);
  for (;;) {
    if (existsSync(path.join(folder, 'ready'))) return;
    await mkdir(path.dirname(folder), { recursive: true });
    const taken = await mkdir(lock).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (!taken) {
      // Two waiters may both find it abandoned and both make the fixtures: twice the work, but
      // each in its own folder, and the renames leave one whole.
      if (await abandoned(lock)) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      await writeFile(path.join(lock, 'pid'), String(process.pid));
      if (existsSync(path.join(folder, 'ready'))) return;
      const making = `${folder}.making-${process.pid}-${Date.now()}`;
      try {
        await make(making);
        await rename(making, folder).catch((error: NodeJS.ErrnoException) => {
          // Another run put the same hash in place first: its folder is as good as ours.
          if (!existsSync(path.join(folder, 'ready'))) throw error;
        });
      } finally {
        await rm(making, { recursive: true, force: true });
      }
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
    await pruneOthers(folder);
    return;
  }
}

/** Its last use, by which pruning judges it. */
async function markUsed(folder: string): Promise<void> {
  const now = new Date();
  await utimes(path.join(folder, 'ready'), now, now).catch(() => undefined);
}

/**
 * Vitest's global setup: names the folder of the fixtures for today's inputs (its hash) in the
 * environment. It makes nothing: the first test that needs them does (fixturesReady).
 */
export default async function nameRunFixtures(): Promise<(() => void) | undefined> {
  // Each project of the run calls this; the first names them.
  if (process.env[PREPARED]) return undefined;
  const root = path.join(CACHE, await fixturesHash());
  process.env[PREPARED] = root;
  // A new DATA_DIR copies it once it is there, and runs initdb before (embedded-folder.ts).
  process.env[EMPTY_TEMPLATE] = path.join(root, 'pgdata-template');
  return () => {
    delete process.env[PREPARED];
    delete process.env[EMPTY_TEMPLATE];
  };
}

let ready: Promise<string | undefined> | undefined;

/**
 * The run's fixtures' folder, once they are there: made now if no test of the run has made them
 * yet (a minute; the run's other workers wait meanwhile). Undefined outside a test run.
 */
export function fixturesReady(): Promise<string | undefined> {
  const root = process.env[PREPARED];
  if (!root) return Promise.resolve(undefined);
  ready ??= makeOnce(root).then(async () => {
    await markUsed(root);
    return root;
  });
  return ready;
}

export interface RunFixtures {
  /** A DATA_DIR holding only `vectors/`: the weight-free models' caches, fitted on the book. */
  fittedDataDir: string;
  /** A migrated embedded database, as embeddedImage writes it. */
  storeImage: string;
}

/** The run's fixtures, made if need be; undefined outside a test run. */
async function runFixtures(): Promise<RunFixtures | undefined> {
  const root = await fixturesReady();
  if (!root) return undefined;
  return {
    fittedDataDir: path.join(root, 'fitted'),
    storeImage: path.join(root, 'store.tar'),
  };
}

/**
 * A new folder, for a DATA_DIR, that already holds the run's fitted vector caches: an engine or
 * a server started there loads the models as on a restart. Outside a test run, an empty folder.
 */
export async function prefittedDataDir(prefix = 'prefitted-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await addFittedModels(dir);
  return dir;
}

/**
 * Puts the run's fitted vector caches into `dataDir` (made, for this user only, if need be), as
 * a start there would have left them. Outside a test run, it only makes the folder.
 */
export async function addFittedModels(dataDir: string): Promise<void> {
  const fixtures = await runFixtures();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (fixtures) await cp(path.join(fixtures.fittedDataDir, 'vectors'), path.join(dataDir, 'vectors'), { recursive: true });
}

let image: Promise<Uint8Array> | undefined;

/** A new in-memory store, migrated, as a copy of the run's image; undefined outside a test run. */
export async function storeFromImage(): Promise<Db | undefined> {
  const fixtures = await runFixtures();
  if (!fixtures) return undefined;
  image ??= readFile(fixtures.storeImage);
  return openEmbeddedDbFromImage(await image);
}

/** The environment of a built server: it copies the build's own empty database, as outside the tests. */
export function withoutRunTemplate(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [EMPTY_TEMPLATE]: _runs, ...rest } = env;
  return rest;
}
