import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/modules/auth/passwords.ts';
import { ensureDemoUser } from '../../server/modules/admin/bootstrap.ts';
import { openPostgresDb } from '../../server/platform/store/db.ts';
import { migrate } from '../../server/platform/store/migrate.ts';
import { lockThrottle, PENDING_FOR_MS, settleFailures, writeThrottle } from '../../server/platform/limits/throttle.ts';
import { findUser, listUsers } from '../../server/modules/auth/sql/users.ts';
import pg from 'pg';
import { STORES, openTestDb, type TestDb } from './harness.ts';

describe.each(STORES)('store on %s', (store) => {
  let test: TestDb;
  afterEach(() => test.drop());

  it('applies migrations once: a second run finds nothing to do', async () => {
    // Migrated here, not a copy of the run's migrated database.
    test = await openTestDb(store, { fresh: true });
    expect(await migrate(test.db)).toEqual([]);
    const tables = await test.db.query<{ name: string }>('SELECT name FROM schema_migrations');
    expect(tables.map((t) => t.name)).toContain('001_initial.sql');
  });

  it('applies a migration whose function body holds semicolons, whole or not at all', async () => {
    test = await openTestDb(store);
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    await writeFile(
      path.join(dir, '100_function.sql'),
      `-- a trigger function: its body is one statement holding several semicolons
CREATE FUNCTION shout(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE loud text;
BEGIN
  loud := upper(t);
  RETURN loud || '!';
END;
$$;
CREATE TABLE shouts (said text NOT NULL);`,
    );
    await writeFile(path.join(dir, '101_broken.sql'), 'CREATE TABLE half_done (x int);\nSELECT no_such_function();');
    await expect(migrate(test.db, dir)).rejects.toThrow(/no_such_function/);
    expect((await test.db.query<{ said: string }>("SELECT shout('salaam') AS said"))[0]?.said).toBe('SALAAM!');
    // The broken file left nothing behind, and is not marked as applied.
    expect(await test.db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'")).toEqual([]);
    const names = (await test.db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name);
    expect(names).toContain('100_function.sql');
    expect(names).not.toContain('101_broken.sql');
  });

  it('creates demo on a first start with DEMO_PASSWORD, and never again', async () => {
    test = await openTestDb(store);
    const printed: string[] = [];
    expect(await ensureDemoUser(test.db, 'a demo password', (line) => printed.push(line))).toBe(true);
    const demo = await findUser(test.db, 'demo');
    expect(demo?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(demo!.password_hash, 'a demo password')).toBe(true);
    expect(printed).toEqual([]); // a password the operator chose is not echoed
    expect(await ensureDemoUser(test.db, 'another password')).toBe(false);
    expect((await listUsers(test.db)).length).toBe(1);
  });

  it('prints a generated demo password once, and it works', async () => {
    test = await openTestDb(store);
    const printed: string[] = [];
    await ensureDemoUser(test.db, undefined, (line) => printed.push(line));
    const password = /password: (\S+)/.exec(printed.join('\n'))?.[1];
    expect(password).toHaveLength(20);
    expect(await verifyPassword((await findUser(test.db, 'demo'))!.password_hash, password!)).toBe(true);
  });

  it('counts sign-in attempts in flight for ten seconds at most: one cut short is not waited for again', async () => {
    test = await openTestDb(store);
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const state = { failures: 5, windowStartedAt: t0, lockedUntil: t0 + 60_000 };
    await writeThrottle(test.db, 'user:x', state, 2, t0 + PENDING_FOR_MS);
    const read = (now: number) => test.db.transaction((tx) => lockThrottle(tx, 'user:x', now));
    expect(await read(t0 + 1_000)).toEqual({ state, pending: 2 });
    await settleFailures(test.db, ['user:x', 'ip:nowhere']);
    expect((await read(t0 + 1_000)).pending).toBe(1);
    expect(await read(t0 + PENDING_FOR_MS)).toEqual({ state, pending: 0 });
  });

  it('rejects a stored username that is not lower case', async () => {
    test = await openTestDb(store);
    await expect(test.db.query("INSERT INTO users (username, password_hash) VALUES ('Mixed', 'x')")).rejects.toThrow();
  });
});

describe.runIf(STORES.includes('postgres'))('migrations on PostgreSQL', () => {
  it('several servers starting at once on an empty database migrate it once, and none of them fails', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const servers = [];
    for (let i = 0; i < 4; i++) servers.push(await openPostgresDb(url, { schema }));
    try {
      const applied = await Promise.all(servers.map((db) => migrate(db)));
      const files = (await readdir(path.join(import.meta.dirname, '../../server/platform/store/migrations'))).filter((f) => f.endsWith('.sql'));
      expect(applied.flat().sort()).toEqual(files.sort());
      expect(await servers[0]!.query('SELECT name FROM schema_migrations')).toHaveLength(files.length);
    } finally {
      await Promise.all(servers.map((db) => db.close()));
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });
});
