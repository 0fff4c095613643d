import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db, Transaction } from './db.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/**
 * Applies, in name order, every migration file the database has not seen yet, each whole in one
 * transaction (the driver runs the file as a script, so a function body's semicolons are safe).
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  // A lock keeps servers starting at once on one database from racing: CREATE TABLE IF NOT
  // EXISTS is not safe against a concurrent twin, and neither is applying a file twice.
  await db.transaction(async (tx) => {
    await lockMigrations(db, tx);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  }, UNLIMITED);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const applied = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
  );
  const done: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = await readFile(path.join(dir, file), 'utf8');
    await db.transaction(async (tx) => {
      await lockMigrations(db, tx);
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file]);
      if (again.length > 0) return;
      await tx.execScript(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      done.push(file);
    }, UNLIMITED);
  }
  return done;
}

/** A migration takes what it takes, and waits for another server's: no time-outs (requests keep theirs). */
const UNLIMITED = { unlimited: true };

/** Held until the transaction ends; PGlite has one connection, so it needs none. */
async function lockMigrations(db: Db, tx: Transaction): Promise<void> {
  if (db.kind !== 'postgres') return;
  await tx.query('SELECT pg_advisory_xact_lock(7261001)');
}
