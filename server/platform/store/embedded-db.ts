import { PGlite } from '@electric-sql/pglite';
import { Blob as NodeBlob } from 'node:buffer';
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
  return embeddedStore(lite, lock);
}

/**
 * An embedded store in memory that starts as a copy of `image`, a whole database as
 * embeddedImage wrote it. The tests make one migrated database per run and start each store
 * from it, instead of running initdb (seconds of CPU time) and the migrations for each.
 */
export async function openEmbeddedDbFromImage(image: Uint8Array): Promise<Db> {
  // Node's own Blob, which PGlite reads: where the caller runs in jsdom (the client's tests) the
  // global one is jsdom's, which has no arrayBuffer(). The two differ in their types' names only.
  const loadDataDir = new NodeBlob([image]) as unknown as Blob;
  return embeddedStore(await PGlite.create({ postgresqlconf: EMBEDDED_SETTINGS, loadDataDir }));
}

/** The whole database of an embedded store, as openEmbeddedDbFromImage reads it (an uncompressed tarball). */
export async function embeddedImage(db: Db): Promise<Uint8Array> {
  const lite = pglites.get(db);
  if (!lite) throw new Error(`an image is made of an embedded store, not of ${db.kind}`);
  return new Uint8Array(await (await lite.dumpDataDir('none')).arrayBuffer());
}

/** Each embedded store's PGlite, for embeddedImage. */
const pglites = new WeakMap<Db, PGlite>();

function embeddedStore(lite: PGlite, lock?: DataDirLock): Db {
  const db: Db = {
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
  pglites.set(db, lite);
  return db;
}
