/** The cluster's PostgreSQL: this machine's local cluster made ready, a database made or dropped. */
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const DATABASE_NAME = /^[a-z_][a-z0-9_]*$/;

/** The URL with its database name replaced. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The URL with its password hidden, for printing. */
export function redacted(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Creates `database` on the server `adminUrl` points at (dropping it first when asked). */
export async function createDatabase(adminUrl: string, database: string, options: { dropFirst?: boolean } = {}): Promise<string> {
  if (!DATABASE_NAME.test(database)) throw new Error(`not a plain database name: ${database}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if (options.dropFirst) await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${database}`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, database);
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  if (!DATABASE_NAME.test(database)) throw new Error(`not a plain database name: ${database}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export const LOCAL_POSTGRES = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * This machine's PostgreSQL 15 cluster, as CI uses it: started (as root) if it is not running,
 * the postgres user's password set to "postgres" where it is not yet, and `database` created if
 * missing. Returns the database's URL.
 */
export async function ensureLocalPostgres(database: string, say: (line: string) => void): Promise<string> {
  if (!(await canConnect(LOCAL_POSTGRES))) {
    if (process.getuid?.() !== 0) {
      throw new Error(`PostgreSQL does not answer at ${redacted(LOCAL_POSTGRES)}: set DATABASE_URL, or run this as root to start the local cluster`);
    }
    say('starting the local PostgreSQL (pg_ctlcluster 15 main start)');
    spawnSync('pg_ctlcluster', ['15', 'main', 'start'], { stdio: 'ignore' }); // fails harmlessly when it already runs
    const deadline = Date.now() + 30_000;
    while (spawnSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', '5432']).status !== 0) {
      if (Date.now() > deadline) throw new Error('PostgreSQL did not become ready within 30 s (pg_isready)');
      await sleep(500);
    }
    if (!(await canConnect(LOCAL_POSTGRES))) {
      // As .ci/run does: the postgres user connects over 127.0.0.1 with the password "postgres".
      const set = spawnSync('su', ['postgres', '-c', `psql -qc "ALTER USER postgres PASSWORD 'postgres'"`], { encoding: 'utf8' });
      if (set.status !== 0) throw new Error(`could not set the postgres user's password: ${set.stderr}`);
    }
  }
  return createDatabase(LOCAL_POSTGRES, database);
}
