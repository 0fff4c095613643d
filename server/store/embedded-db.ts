import { PGlite } from '@electric-sql/pglite';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { lockDataDir, type DataDirLock, type LockOptions } from './data-dir-lock.ts';
import type { Db, Transaction } from './db-interface.ts';
import { unavailableOr } from './db-errors.ts';
import { createDataDir, databaseFolderState, EMBEDDED_SETTINGS, openFailure, removeDrafts } from './embedded-folder.ts';
import { closeDatabaseFolder } from './private-dir.ts';

/**
 * The embedded store: PGlite in `dataDir`, or in memory when no folder is given (tests). Throws
 * DataDirLockedError while another live process has that folder open.
 */
export async function openEmbeddedDb(dataDir?: string, lockOptions: LockOptions = {}): Promise<Db> {
  let lock: DataDirLock | undefined;
  if (dataDir) {
    // DATA_DIR, when a command (npm run users) makes it before any server has: this user's only.
    await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o700 });
    lock = await lockDataDir(dataDir, lockOptions);
  }
  let lite: PGlite;
  try {
    const options = { postgresqlconf: EMBEDDED_SETTINGS };
    if (dataDir) {
      await removeDrafts(dataDir);
      const { state, folder } = await databaseFolderState(dataDir);
      if (state === 'none') await createDataDir(folder);
      // A folder made before its files were closed to others.
      else await closeDatabaseFolder(folder);
      lite = await PGlite.create(folder, options).catch(async (error: unknown) => {
        throw await openFailure(folder, error);
      });
    } else {
      lite = await PGlite.create(options);
    }
  } catch (error) {
    await lock?.release();
    throw error;
  }
  return {
    kind: 'embedded',
    async query<T>(sql: string, params: unknown[] = []) {
      try {
        return (await lite.query<T>(sql, params)).rows;
      } catch (error) {
        throw unavailableOr(error);
      }
    },
    async transaction<T>(work: (tx: Transaction) => Promise<T>) {
      try {
        return await lite.transaction((tx) =>
          work({
            query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows,
            execScript: async (sql: string) => void (await tx.exec(sql)),
          }),
        );
      } catch (error) {
        throw unavailableOr(error);
      }
    },
    async close() {
      await lite.close();
      await lock?.release();
    },
  };
}
