import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MARK = 'ALCHEMY_TESTS_TMPDIR';

/**
 * Vitest's global setup: the run's temporary folders (each test server's DATA_DIR with its
 * database, Chromium's profiles, nginx's prefixes, fake model hubs) are all made inside one
 * folder of the system's temporary directory, deleted when the run ends, passed or failed. Left
 * behind, one full run came to 1.9 GB, and repeated runs filled a developer's disk.
 *
 * `os.tmpdir()` reads TMPDIR at every call, and the test workers and every process they start
 * inherit it, so nothing else needs to know. Each project of the run calls this; the first makes
 * the folder.
 */
export default async function useOneTemporaryFolder(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[MARK]) return undefined;
  const outer = process.env.TMPDIR;
  const folder = await mkdtemp(path.join(tmpdir(), 'alchemy-tests-'));
  // Others may pass through (the private PostgreSQL runs as its own user); each folder made
  // inside is the owner's alone, as before.
  await chmod(folder, 0o755);
  process.env.TMPDIR = folder;
  process.env[MARK] = folder;
  return async () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    delete process.env[MARK];
    await rm(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
