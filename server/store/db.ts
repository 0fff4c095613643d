import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { lockDataDir, type DataDirLock } from './data-dir-lock.ts';

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Inside a transaction, a script too: several statements in one string, as the driver runs them. */
export interface Transaction extends Queryable {
  /** Runs a script of statements (a migration file); function bodies may hold semicolons. */
  execScript(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs `work` in one transaction: all of it is stored, or none of it. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** The connection pool's state (PostgreSQL; the embedded store has no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
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

/**
 * The embedded store: PGlite in `dataDir`, or in memory when no folder is given (tests). Throws
 * DataDirLockedError while another live process has that folder open.
 */
export async function openEmbeddedDb(dataDir?: string): Promise<Db> {
  let lock: DataDirLock | undefined;
  if (dataDir) {
    // DATA_DIR, when a command (npm run users) makes it before any server has: this user's only.
    await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o700 });
    lock = await lockDataDir(dataDir);
  }
  let lite: PGlite;
  try {
    if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) {
      await mkdir(dataDir, { recursive: true });
      await createDataDirInWorker(dataDir);
    }
    const options = { postgresqlconf: EMBEDDED_SETTINGS };
    lite = dataDir ? await PGlite.create(dataDir, options) : await PGlite.create(options);
  } catch (error) {
    await lock?.release();
    throw error;
  }
  return {
    kind: 'embedded',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await lite.query<T>(sql, params)).rows;
    },
    transaction<T>(work: (tx: Transaction) => Promise<T>) {
      return lite.transaction((tx) =>
        work({
          query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows,
          execScript: async (sql: string) => void (await tx.exec(sql)),
        }),
      );
    },
    async close() {
      await lite.close();
      await lock?.release();
    },
  };
}

/** The database cannot be reached right now (down, restarting, or it dropped the connection). */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
  }
}

/**
 * What the database says when it cannot serve us now, however right the query: class 08
 * (connection exception), 57P01–57P03 (shutting down or starting), class 53 (out of connections,
 * memory or disk), 25006 (read-only: a standby after a failover), 57014 (cancelled, by an operator
 * or a statement time-out), 55P03 (a lock not granted in time), 40001 and 40P01 (serialization
 * failure, deadlock: worth trying again).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53...|25006|57014|55P03|40001|40P01)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended/i;

/** Whether an error from the driver means the database is away, not that the query was wrong. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  return UNAVAILABLE_MESSAGE.test(error.message);
}

function unavailableOr(error: unknown): unknown {
  return isUnavailable(error) ? new StoreUnavailableError(error) : error;
}

export interface PostgresOptions {
  /** A schema of its own, as every connection's search path (the tests give each suite one). */
  schema?: string;
  /** Told when the pool drops a broken idle connection (the server logs it). */
  onConnectionError?: (error: Error) => void;
}

/** PostgreSQL over a connection pool. */
export async function openPostgresDb(url: string, options: PostgresOptions = {}): Promise<Db> {
  const { schema } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // While the database is away a request gets a 503 within seconds instead of hanging.
    connectionTimeoutMillis: 3000,
    // Nor does a request wait long behind an operator's lock (5 s, then 55P03: a 503), nor on a
    // statement the server cannot finish (30 s, then 57014: a 503).
    lock_timeout: 5_000,
    statement_timeout: 30_000,
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
  // An idle connection the server terminates (a restart, pg_terminate_backend) is reported here
  // and dropped by the pool; without a listener the process would exit. The next query connects anew.
  pool.on('error', (error) => options.onConnectionError?.(error));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw unavailableOr(error);
  }
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      try {
        return (await pool.query(sql, params)).rows as T[];
      } catch (error) {
        throw unavailableOr(error);
      }
    },
    async transaction<T>(work: (tx: Transaction) => Promise<T>) {
      const client = await pool.connect().catch((error: unknown) => {
        throw unavailableOr(error);
      });
      // While checked out the pool does not listen for this client's errors: a connection lost
      // between two statements must fail the transaction, not the process.
      const onError = () => undefined;
      client.on('error', onError);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
          // Without parameters pg uses the simple query protocol, which takes several statements.
          execScript: async (sql: string) => void (await client.query(sql)),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (isUnavailable(error)) {
          broken = error as Error;
          throw new StoreUnavailableError(error);
        }
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed rather than handed to the next request.
        client.release(broken);
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

export async function openDb(
  settings: { databaseUrl?: string; dataDir: string },
  onConnectionError?: (error: Error) => void,
): Promise<Db> {
  return settings.databaseUrl
    ? openPostgresDb(settings.databaseUrl, { onConnectionError })
    : openEmbeddedDb(`${settings.dataDir}/pgdata`);
}
