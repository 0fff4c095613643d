import pg from 'pg';
import type { Db, Transaction, TransactionOptions } from './db-interface.ts';
import { isUnavailable, StoreUnavailableError, unavailableOr } from './db-errors.ts';

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
