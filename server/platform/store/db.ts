/**
 * The store: PGlite (embedded, in DATA_DIR) or PostgreSQL (DATABASE_URL) behind one small Db
 * interface. What the rest of the server imports; each part lives in a module of its own:
 * db-interface.ts (the interface), embedded-folder.ts (the embedded database's folder: made,
 * checked, its template), embedded-db.ts and postgres-db.ts (the two stores), db-errors.ts (which
 * driver errors mean the database cannot serve us now).
 */
import type { LockOptions } from './data-dir-lock.ts';
import type { Db } from './db-interface.ts';
import { openEmbeddedDb } from './embedded-db.ts';
import { embeddedFolder } from './embedded-folder.ts';
import { openPostgresDb } from './postgres-db.ts';

export type { Db, Queryable, Transaction, TransactionOptions } from './db-interface.ts';
export { isUnavailable, isUnreachable, StoreUnavailableError } from './db-errors.ts';
export { createEmbeddedTemplate, DataFolderError, embeddedFolder } from './embedded-folder.ts';
export { embeddedImage, openEmbeddedDb, openEmbeddedDbFromImage } from './embedded-db.ts';
export { openPostgresDb, QUERY_READ_TIMEOUT_MS, type PostgresOptions } from './postgres-db.ts';

/** The store the settings name: PostgreSQL at DATABASE_URL, else the embedded one in DATA_DIR. */
export async function openDb(
  settings: { databaseUrl?: string; dataDir: string },
  options: {
    onConnectionError?: (error: Error) => void;
    /** How the embedded store's folder is locked (who holds it, whom to tell when it waits). */
    lock?: LockOptions;
  } = {},
): Promise<Db> {
  return settings.databaseUrl
    ? openPostgresDb(settings.databaseUrl, { onConnectionError: options.onConnectionError })
    : openEmbeddedDb(embeddedFolder(settings.dataDir), options.lock);
}
