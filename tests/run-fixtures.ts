import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedDbFromImage, type Db } from '../server/platform/store/db.ts';

/**
 * What many tests start from, made once per run instead of by each test (tests/fixtures/prepare-run.ts
 * makes it, in a process of its own, whose memory goes when it ends): the weight-free models
 * fitted on the book, an empty embedded database, and a migrated one. Vitest's global setup
 * (below) makes them before the first test, and says where in the environment, which its test
 * workers, and every process they start, inherit. Helpers used outside a test run (the bench)
 * find nothing named and make their own, as before.
 */
const PREPARED = 'ALCHEMY_TESTS_PREPARED';
/**
 * The server's own setting (server/platform/store/db.ts): an empty embedded database that a new DATA_DIR
 * copies instead of running initdb. Beside the built server there is one; the commands and
 * stores the tests run from the sources are pointed at the run's.
 */
const EMPTY_TEMPLATE = 'EMBEDDED_TEMPLATE_DIR';

/**
 * Vitest's global setup: makes the run's fixtures in the run's temporary folder
 * (tests/run-temp-folder.ts, which runs first), deleted with it.
 */
export default async function prepareOncePerRun(): Promise<(() => void) | undefined> {
  // Each project of the run calls this; the first prepares.
  if (process.env[PREPARED]) return undefined;
  const root = await mkdtemp(path.join(tmpdir(), 'prepared-'));
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/prepare-run.ts', root], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(path.join(root, 'ready'))) throw new Error(`The tests' fixtures could not be made (exit ${code}):\n${output}`);
  process.env[PREPARED] = root;
  process.env[EMPTY_TEMPLATE] = path.join(root, 'pgdata-template');
  return () => {
    delete process.env[PREPARED];
    delete process.env[EMPTY_TEMPLATE];
  };
}

export interface RunFixtures {
  /** A DATA_DIR holding only `vectors/`: the weight-free models' caches, fitted on the book. */
  fittedDataDir: string;
  /** A migrated embedded database, as embeddedImage writes it. */
  storeImage: string;
}

/** The run's fixtures; undefined outside a test run. */
export function runFixtures(): RunFixtures | undefined {
  const root = process.env[PREPARED];
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
  const fixtures = runFixtures();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (fixtures) await cp(path.join(fixtures.fittedDataDir, 'vectors'), path.join(dataDir, 'vectors'), { recursive: true });
}

let image: Promise<Uint8Array> | undefined;

/** A new in-memory store, migrated, as a copy of the run's image; undefined outside a test run. */
export async function storeFromImage(): Promise<Db | undefined> {
  const fixtures = runFixtures();
  if (!fixtures) return undefined;
  image ??= readFile(fixtures.storeImage);
  return openEmbeddedDbFromImage(await image);
}

/** The environment of a built server: it copies the build's own empty database, as outside the tests. */
export function withoutRunTemplate(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [EMPTY_TEMPLATE]: _runs, ...rest } = env;
  return rest;
}
