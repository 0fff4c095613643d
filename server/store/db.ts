import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs `work` in one transaction: all of it is stored, or none of it. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Postgres's 128 MB default buffer cache is sized for a server of its own; the embedded store
 * holds a few thousand rows, and 16 MB keeps the whole process well under 300 MB.
 */
const EMBEDDED_SETTINGS = ['shared_buffers=16MB', 'work_mem=2MB', 'maintenance_work_mem=16MB', 'wal_buffers=1MB'];

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

/** The embedded store: PGlite in `dataDir`, or in memory when no folder is given (tests). */
export async function openEmbeddedDb(dataDir?: string): Promise<Db> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await createDataDirInWorker(dataDir);
  const options = { postgresqlconf: EMBEDDED_SETTINGS };
  const lite = dataDir ? await PGlite.create(dataDir, options) : await PGlite.create(options);
  return {
    kind: 'embedded',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await lite.query<T>(sql, params)).rows;
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>) {
      return lite.transaction((tx) =>
        work({ query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows }),
      );
    },
    close: () => lite.close(),
  };
}

/**
 * PostgreSQL over a connection pool. `schema`, when given, becomes the search path of every
 * connection (the tests give each suite a schema of its own).
 */
export async function openPostgresDb(url: string, options: { schema?: string } = {}): Promise<Db> {
  const { schema } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await admin.end();
    }
  }
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export async function openDb(settings: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  return settings.databaseUrl
    ? openPostgresDb(settings.databaseUrl)
    : openEmbeddedDb(`${settings.dataDir}/pgdata`);
}
