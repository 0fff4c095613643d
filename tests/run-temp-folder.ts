import { enterOneTemporaryFolder } from '../scripts/temporary-folder.ts';

const MARK = 'ALCHEMY_TESTS_TMPDIR';

/**
 * Vitest's global setup: the run's temporary folders (each test server's DATA_DIR with its
 * database, Chromium's profiles, nginx's prefixes, fake model hubs) are all made inside one
 * folder, deleted when the run ends, passed or failed. Each project of the run calls this; the
 * first makes the folder.
 */
export default async function oneTemporaryFolderForTheRun(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[MARK]) return undefined;
  process.env[MARK] = '1';
  const restore = await enterOneTemporaryFolder('alchemy-tests-');
  return async () => {
    delete process.env[MARK];
    await restore();
  };
}
