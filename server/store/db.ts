import { PGlite } from '@electric-sql/pglite';
import { Blob as NodeBlob } from 'node:buffer';
import { existsSync } from 'node:fs';
import { access, constants, cp, lstat, mkdir, readdir, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { lockDataDir, type DataDirLock, type LockOptions } from './data-dir-lock.ts';
import { closeDatabaseFolder, openToReaders } from './private-dir.ts';

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Inside a transaction, a script too: several statements in one string, as the driver runs them. */
export interface Transaction extends Queryable {
  /** Runs a script of statements (a migration file); function bodies may hold semicolons. */
  execScript(sql: string): Promise<void>;
}

export interface TransactionOptions {
  /**
   * No time-outs at all: a migration takes what it takes, and may wait for another server's.
   * Every other transaction waits a bounded time for locks, statements and the database's answer.
   */
  unlimited?: boolean;
}

export interface Db extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs `work` in one transaction: all of it is stored, or none of it. */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
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
 * An empty embedded database made once by the build (scripts/build-server.ts), beside the built
 * server: a new DATA_DIR starts as a copy of it instead of running initdb (6.7 s and 9.9 s of
 * CPU time here). Run from the sources there is none, and initdb runs.
 */
function embeddedTemplateDir(): string {
  // Another one made beforehand, where EMBEDDED_TEMPLATE_DIR names it: the tests make one per run
  // for the commands and stores they run from the sources.
  if (process.env.EMBEDDED_TEMPLATE_DIR) return process.env.EMBEDDED_TEMPLATE_DIR;
  // Worked out when a folder is made, not on import: the client's tests (jsdom) import this
  // module through server/http/errors.ts, and there a module's URL is not a file's.
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
async function createDataDir(dataDir: string): Promise<void> {
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
async function databaseFolderState(dataDir: string): Promise<{ state: 'database' | 'none'; folder: string }> {
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
async function openFailure(dataDir: string, error: unknown): Promise<DataFolderError> {
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
async function removeDrafts(dataDir: string): Promise<void> {
  const prefix = `${path.basename(dataDir)}.new-`;
  const parent = path.dirname(dataDir);
  for (const name of await readdir(parent)) {
    if (name.startsWith(prefix)) await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

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

/** The database cannot be reached right now (down, restarting, or it dropped the connection). */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
  }
}

/**
 * The database cannot be reached: class 08 (connection exception) but for 08P01 (a protocol
 * violation: a setting refused, not an outage), 57P01–57P03 (shutting down or starting), 57P04
 * (the database dropped under a running server), 53300 (out of connections), 55000 when the
 * database takes no connections (`ALLOW_CONNECTIONS false`, told by its message: the code alone
 * also names mistakes in a query), and the network's own errors.
 */
const UNREACHABLE_SQLSTATE = /^(08(?!P01)...|57P0[1234]|53300)$/;
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const UNREACHABLE_MESSAGE = /not currently accepting connections|Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|Query read timeout|PGlite is closed/i;
/**
 * It answers but cannot serve us now, however right the query: class 53 (out of memory or disk),
 * 25006 (read-only: a standby after a failover), 57014 (cancelled, by an operator or the statement
 * time-out), 55P03 (a lock not granted in time), 40001 and 40P01 (serialization failure,
 * deadlock). A request gets a 503 for these; a start does not wait on them (see isUnreachable).
 */
const BUSY_SQLSTATE = /^(53...|25006|57014|55P03|40001|40P01)$/;

const codeOf = (error: Error) => (error as { code?: unknown }).code;

/** Whether an error from the driver means the database cannot be reached at all. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return isUnreachable(error.cause);
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code))) return true;
  return UNREACHABLE_MESSAGE.test(error.message);
}

/** Whether an error from the driver means the database cannot serve us now, not that the query was wrong. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError || isUnreachable(error)) return true;
  const code = error instanceof Error ? codeOf(error) : undefined;
  return typeof code === 'string' && BUSY_SQLSTATE.test(code);
}

function unavailableOr(error: unknown): unknown {
  return isUnavailable(error) ? new StoreUnavailableError(error) : error;
}

/**
 * Every statement waits at most 5 s behind an operator's lock (then 55P03: a 503) and runs at most
 * 20 s (then 57014: a 503), cancelled by the database itself, so none goes on after its request
 * has been answered. Set on each new connection for single statements, and again with each
 * transaction's BEGIN, in the same round trip, for poolers that share one server connection
 * between clients (PgBouncer in transaction mode, which also refuses them in the start-up message).
 */
const SESSION_TIMEOUTS = "SET lock_timeout = '5s'; SET statement_timeout = '20s'";
const BEGIN_WITH_TIMEOUTS = "BEGIN; SET LOCAL lock_timeout = '5s'; SET LOCAL statement_timeout = '20s'";
/** A migration takes what it takes, and waits for another server's, whatever the role's defaults. */
const BEGIN_UNLIMITED = 'BEGIN; SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0';

/**
 * How long the driver waits for the database's answer to one query before it gives up on the
 * connection: longer than the statement time-out, so a slow statement is cancelled by the
 * server first, and this is reached only when the database does not answer at all (frozen, or
 * its host gone without closing the connection). The request then gets a 503 and the connection
 * is destroyed, instead of the request, and every later one handed that connection, waiting for
 * good. It bounds a whole transaction, however many queries it makes, and each query outside
 * one; a request gives up at the first that runs out (a sign-in then also gives back its
 * attempt), well within nginx's 60 s for an answer.
 */
export const QUERY_READ_TIMEOUT_MS = 25_000;
/** How long a new connection waits for its session time-outs to be set. */
const SESSION_SETUP_TIMEOUT_MS = 3_000;
/**
 * However little of a transaction's time is left, its COMMIT waits this long for the answer: a
 * COMMIT given up on too soon may still be carried out, after the request was told it failed.
 */
const COMMIT_TIMEOUT_MS = 5_000;

/**
 * A query with the driver's read time-out (pg honours `query_timeout` on a query's config; its
 * types name it only among the client's settings). Without values pg uses the simple query
 * protocol, which takes a script of several statements.
 */
function queryConfig(text: string, values: unknown[] | undefined, readTimeoutMs: number | undefined): pg.QueryConfig {
  const config: pg.QueryConfig & { query_timeout?: number } = { text };
  if (values) config.values = values;
  if (readTimeoutMs !== undefined) config.query_timeout = readTimeoutMs;
  return config;
}

export interface PostgresOptions {
  /** A schema of its own, as every connection's search path (the tests give each suite one). */
  schema?: string;
  /** Told when the pool drops a broken idle connection (the server logs it). */
  onConnectionError?: (error: Error) => void;
  /** How long to wait for the database's answer to one query (QUERY_READ_TIMEOUT_MS; tests shorten it). */
  queryReadTimeoutMs?: number;
}

/** PostgreSQL over a connection pool. */
export async function openPostgresDb(url: string, options: PostgresOptions = {}): Promise<Db> {
  const { schema, queryReadTimeoutMs = QUERY_READ_TIMEOUT_MS } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // While the database is away a request gets a 503 within seconds instead of hanging.
    connectionTimeoutMillis: 3000,
    // Run on each new connection before its first use (a failure fails the connection); the
    // connection time-out has ended by then, so this has its own.
    onConnect: async (client) => void (await client.query(queryConfig(SESSION_TIMEOUTS, undefined, SESSION_SETUP_TIMEOUT_MS))),
    // A peer that vanished without closing the connection is noticed by the operating system.
    keepAlive: true,
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
        // On an error (a read time-out included) the pool destroys the connection rather than reuse it.
        return (await pool.query(queryConfig(sql, params, queryReadTimeoutMs))).rows as T[];
      } catch (error) {
        throw unavailableOr(error);
      }
    },
    async transaction<T>(work: (tx: Transaction) => Promise<T>, { unlimited = false }: TransactionOptions = {}) {
      const client = await pool.connect().catch((error: unknown) => {
        throw unavailableOr(error);
      });
      // While checked out the pool does not listen for this client's errors: a connection lost
      // between two statements must fail the transaction, not the process.
      const onError = () => undefined;
      client.on('error', onError);
      let broken: Error | undefined;
      // The whole transaction, however many round trips it makes, waits for the database at most
      // the read time-out: a database answering each query slowly cannot hold a request longer.
      const deadline = performance.now() + queryReadTimeoutMs;
      const ask = (text: string, values?: unknown[], atLeastMs = 1) =>
        client.query(queryConfig(text, values, unlimited ? undefined : Math.max(atLeastMs, Math.round(deadline - performance.now()))));
      try {
        await ask(unlimited ? BEGIN_UNLIMITED : BEGIN_WITH_TIMEOUTS);
        const result = await work({
          query: async <R>(sql: string, params: unknown[] = []) => (await ask(sql, params)).rows as R[],
          execScript: async (sql: string) => void (await ask(sql)),
        });
        await ask('COMMIT', undefined, Math.min(COMMIT_TIMEOUT_MS, queryReadTimeoutMs));
        return result;
      } catch (error) {
        if (isUnavailable(error)) {
          broken = error as Error;
          throw new StoreUnavailableError(error);
        }
        // A ROLLBACK that fails (the database gone or frozen since) leaves the connection unfit for reuse.
        await ask('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
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

/** Where the embedded database lives in DATA_DIR. */
export function embeddedFolder(dataDir: string): string {
  return `${dataDir}/pgdata`;
}

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
