import { randomUUID } from 'node:crypto';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/modules/auth/passwords.ts';
import { openEmbeddedDb } from '../../server/platform/store/db.ts';
import { freePort } from '../../scripts/server-process.ts';
import { unwritableFolder } from '../fixtures/file-modes.ts';
import { STORES, startTestServer } from './harness.ts';

const run = promisify(execFile);

describe('npm run users', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'users-cli-'));
  });

  async function users(args: string[], password?: string, databaseUrl = '') {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, USER_PASSWORD: password ?? '' },
      });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  }

  it('adds, lists, disables, enables and re-passwords users', async () => {
    expect(await users(['add', 'Fatima'], 'first password')).toEqual({ code: 0, out: 'Added fatima\n' });
    expect((await users(['add', 'fatima'], 'first password')).out).toContain('already exists');
    expect((await users(['list'])).out).toMatch(/^fatima\tactive\tsince \d{4}-\d\d-\d\d$/m);
    expect((await users(['disable', 'fatima'])).out).toContain('Disabled fatima');
    expect((await users(['list'])).out).toMatch(/^fatima\tdisabled/m);
    expect((await users(['enable', 'fatima'])).out).toContain('Enabled fatima');
    expect((await users(['passwd', 'fatima'], 'second password')).out).toContain('Password changed for fatima');

    const db = await openEmbeddedDb(path.join(dataDir, 'pgdata'));
    const [row] = await db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'fatima'");
    await db.close();
    expect(await verifyPassword(row!.password_hash, 'second password')).toBe(true);
  }, 60_000);

  it('says in one sentence that PostgreSQL is not answering, where, and that the command was not carried out', async () => {
    const port = await freePort();
    expect(await users(['add', 'maryam'], 'a long password', `postgres://app:s3cret@127.0.0.1:${port}/alchemy`)).toEqual({
      code: 1,
      out: `PostgreSQL at 127.0.0.1:${port}/alchemy is not answering (connect ECONNREFUSED 127.0.0.1:${port}). The command was not carried out.\n`,
    });
  }, 60_000);

  it('makes a DATA_DIR that does not exist yet for this user only', async () => {
    const fresh = path.join(dataDir, 'not-yet', 'data');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'add', 'hafsa'], {
      env: { ...process.env, DATA_DIR: fresh, DATABASE_URL: '', USER_PASSWORD: 'a long password' },
    });
    expect(stdout).toBe('Added hafsa\n');
    expect((await stat(fresh)).mode & 0o777).toBe(0o700);
  }, 60_000);

  it('says in one sentence, as the server does, that a DATA_DIR which is a file or takes no files cannot be used (exit 2)', async () => {
    const file = path.join(dataDir, 'a-file');
    await writeFile(file, 'not a folder');
    const result = await run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'list'], {
      env: { ...process.env, DATA_DIR: file, DATABASE_URL: '' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^DATA_DIR ${file} cannot be used: [^\n]+\n$`));
    const unwritable = await unwritableFolder();
    const refused = await run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'add', 'amina'], {
      env: { ...process.env, DATA_DIR: unwritable, DATABASE_URL: '', USER_PASSWORD: 'a long password' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(refused).toEqual({ code: 2, stderr: expect.stringMatching(new RegExp(`^DATA_DIR ${unwritable} cannot be used: EACCES[^\n]+\n$`)) as unknown });
  }, 60_000);

  it('refuses to forget a name that is no user, and asks for USER_PASSWORD where it cannot prompt, as usage mistakes (exit 2)', async () => {
    expect(await users(['forget', 'nobody'])).toEqual({ code: 2, out: 'No user nobody\n' });
    // No USER_PASSWORD and no terminal (the test's stdin is not one).
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    delete env.USER_PASSWORD;
    await expect(run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'add', 'ruqayya'], { env })).rejects.toMatchObject({
      code: 2,
      stderr: 'No terminal to ask for a password: set USER_PASSWORD instead.\n',
    });
  }, 60_000);

  it('prints its usage for --help (exit 0), and names an unknown command or a wrong number of arguments (exit 2), changing nothing', async () => {
    const help = await users(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: npm run users -- <command> \[NAME\]/);
    expect((await users(['frobnicate'])).out).toMatch(/^Unknown command "frobnicate"\.\n\nUsage:/);
    const extra = await users(['add', 'carol', 'extra', 'args'], 'a long password');
    expect(extra).toMatchObject({ code: 2 });
    expect(extra.out).toMatch(/^"add" takes one NAME; it was given "carol" "extra" "args"\./);
    expect((await users(['list', 'carol'])).out).toMatch(/^"list" takes no arguments; it was given "carol"\./);
    expect((await users(['list'])).out).not.toContain('carol');
  }, 60_000);

  it('finds no database where DATA_DIR is mistyped, makes none there, and says so (exit 2); only add makes one', async () => {
    const typo = path.join(await mkdtemp(path.join(tmpdir(), 'users-cli-')), 'datta');
    const env = { ...process.env, DATA_DIR: typo, DATABASE_URL: '', USER_PASSWORD: 'a long password' };
    for (const args of [['list'], ['forget', 'amina']]) {
      await expect(run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', ...args], { env })).rejects.toMatchObject({
        code: 2,
        stderr: `There is no database in ${typo} (is DATA_DIR right?): a server's first start makes one, as does npm run users -- add. Nothing was changed.\n`,
      });
    }
    expect(existsSync(typo)).toBe(false);
    // A folder that is there but holds no database (another service's, say /srv) is not touched either: not closed to 0700.
    const shared = await mkdtemp(path.join(tmpdir(), 'users-cli-'));
    await chmod(shared, 0o755);
    await expect(run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'list'], { env: { ...env, DATA_DIR: shared } })).rejects.toMatchObject({ code: 2 });
    expect((await stat(shared)).mode & 0o777).toBe(0o755);
    expect((await run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'add', 'amina'], { env })).stdout).toBe('Added amina\n');
  }, 60_000);

  it('says first, when JWT_SECRET is set, that the keys it lists sign nothing', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', 'list'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: 'a'.repeat(40) },
    });
    expect(stdout.split('\n')[0]).toBe('JWT_SECRET is set: the server signs with it, not with the keys in the store below.');
  }, 60_000);

  it('ends with exit 2 and a sentence when the operator gives up at the password prompt (Ctrl-C or Ctrl-D), adding no one', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    delete env.USER_PASSWORD;
    for (const key of ['\x03', '\x04']) {
      // A real terminal (a pseudo-terminal by util-linux's script), the key typed once the prompt is up.
      const child = spawn('script', ['-qec', `${process.execPath} --import tsx server/cli/users.ts add zaynab; echo EXIT=$?`, '/dev/null'], { env });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Password:') && !child.stdin.writableEnded) child.stdin.end(key);
      });
      await new Promise((resolve) => child.once('exit', resolve));
      expect(out, JSON.stringify(key)).toContain('No password was given: nothing was changed.');
      expect(out, JSON.stringify(key)).toContain('EXIT=2');
    }
    expect((await users(['list'])).out).not.toContain('zaynab');
  }, 60_000);

  /** A reader with `votes` votes and one session, written to the store as the server would. */
  async function readerWithVotesAndASession(name: string, votes: number): Promise<void> {
    expect((await users(['add', name], 'a long password')).code).toBe(0);
    const db = await openEmbeddedDb(path.join(dataDir, 'pgdata'));
    await db.query(
      `INSERT INTO sessions (id, username, created_at, last_used_at, expires_at) VALUES ($1, $2, now(), now(), now() + interval '1 day')`,
      [randomUUID(), name],
    );
    for (let i = 0; i < votes; i++) {
      await db.query(
        `INSERT INTO feedback (author, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction, confidence_score)
         VALUES ($1, 'Ustaz', $1, 'q', 't', 'm', 'A', '👍', 0.5)`,
        [name],
      );
    }
    await db.close();
  }

  /** What the store still holds of a reader. */
  async function leftOf(name: string): Promise<{ votes: number; sessions: number; users: number }> {
    const db = await openEmbeddedDb(path.join(dataDir, 'pgdata'));
    const [counts] = await db.query<{ votes: number; sessions: number; users: number }>(
      `SELECT (SELECT count(*)::int FROM feedback WHERE author = $1) AS votes,
              (SELECT count(*)::int FROM sessions WHERE username = $1) AS sessions,
              (SELECT count(*)::int FROM users WHERE username = $1) AS users`,
      [name],
    );
    await db.close();
    return counts!;
  }

  it('forgets a reader: votes and sessions deleted, the account kept', async () => {
    await readerWithVotesAndASession('zaynab', 2);
    expect((await users(['forget', 'zaynab'])).out).toBe('Forgot zaynab: 2 vote(s), 0 saved passage(s) and 1 session(s) deleted\n');
    expect(await leftOf('zaynab')).toEqual({ votes: 0, sessions: 0, users: 1 });
  }, 60_000);

  it('removes an account on request: the user, its votes and its sessions, and the name can be taken again', async () => {
    await readerWithVotesAndASession('maryam', 1);
    expect((await users(['remove', 'maryam'])).out).toBe('Removed maryam: the account, 1 vote(s), 0 saved passage(s) and 1 session(s) deleted\n');
    expect(await users(['remove', 'maryam'])).toEqual({ code: 2, out: 'No user maryam\n' });
    expect((await users(['list'])).out).not.toContain('maryam');
    const { votes, sessions } = await leftOf('maryam');
    expect({ votes, sessions }).toEqual({ votes: 0, sessions: 0 });
    expect((await users(['add', 'maryam'], 'another long password')).out).toBe('Added maryam\n');
  }, 60_000);

  it('invites: prints a single-use link, keeps only its hash, lists it while pending and revokes it', async () => {
    const cli = (args: string[], env: Record<string, string>) =>
      run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env } }).then(
        ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, out: error.stdout + error.stderr }),
      );
    const made = await cli(['invite', '--type', 'ustaz', '--expires', '2d'], { PUBLIC_URL: 'https://alchemy.example.org/' });
    expect(made.code).toBe(0);
    const [link, said] = made.out.split('\n');
    const token = /^https:\/\/alchemy\.example\.org\/invite\/([\w-]{43})$/.exec(link!)?.[1];
    expect(token).toBeDefined();
    const id = /^Invitation ([0-9a-f]{8}) for an Ustaz: single use, until (\S+)\. Withdraw it with: npm run users -- invite --revoke \1$/.exec(said!);
    expect(id).not.toBeNull();
    expect(Math.abs(Date.parse(id![2]!) - Date.now() - 2 * 86_400_000)).toBeLessThan(60_000);

    // Without PUBLIC_URL the link names the server's own address; the reader chooses their type.
    const plain = await cli(['invite'], { HOST: '0.0.0.0', PORT: '9123', PUBLIC_URL: '' });
    expect(plain.out).toMatch(/^http:\/\/127\.0\.0\.1:9123\/invite\/[\w-]{43}\nInvitation [0-9a-f]{8} for a reader \(Enthusiast or Ustaz, their choice\)/);

    const db = await openEmbeddedDb(path.join(dataDir, 'pgdata'));
    const rows = await db.query<Record<string, unknown>>('SELECT * FROM invitations WHERE id = $1', [id![1]]);
    await db.close();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);

    expect((await users(['list'])).out).toMatch(new RegExp(`^invitation ${id![1]}\tUstaz\tpending until ${id![2]!.replace(/\./g, '\\.')}$`, 'm'));
    expect(await users(['invite', '--revoke', id![1]!])).toEqual({ code: 0, out: `Revoked invitation ${id![1]}: its link no longer works\n` });
    expect((await users(['list'])).out).not.toContain(id![1]);
    expect(await users(['invite', '--revoke', id![1]!])).toEqual({ code: 2, out: `No pending invitation ${id![1]}\n` });
  }, 180_000);

  it('refuses a mistyped invite, inviting no one (exit 2)', async () => {
    const before = (await users(['list'])).out;
    expect((await users(['invite', '--expires', '91d'])).out).toMatch(/^--expires takes minutes, hours or days, from 1m to 90d/);
    expect((await users(['invite', '--expires', '7'])).code).toBe(2);
    expect((await users(['invite', '--type', 'teacher'])).out).toBe('--type is enthusiast or ustaz (got "teacher")\n');
    expect((await users(['invite', '--for', 'x'])).out).toMatch(/^invite does not take "--for"\./);
    expect((await users(['invite', '--revoke', 'ABC'])).code).toBe(2);
    expect((await users(['list'])).out).toBe(before);
  }, 180_000);

  it('refuses passwords outside 8 to 128 characters and bad names, changing nothing', async () => {
    const short = await users(['add', 'omar'], 'short');
    expect(short).toEqual({ code: 2, out: 'Password must be at least 8 characters\n' });
    expect((await users(['add', 'omar'], 'p'.repeat(129))).out).toContain('at most 128');
    expect((await users(['add', 'no spaces'], 'long enough pw')).code).toBe(2);
    expect((await users(['list'])).out).not.toContain('omar');
    expect((await users(['passwd', 'nobody'], 'long enough pw')).out).toContain('No user nobody');
    expect((await users(['frobnicate'])).out).toContain('Usage: npm run users');
  }, 60_000);
});

describe.each(STORES.filter((store) => store === 'postgres'))('npm run users against a running server on %s', (store) => {
  it('disables and re-passwords with effect at once: old tokens get 401, old passwords fail', async () => {
    const server = await startTestServer(store);
    try {
      const [row] = await server.db.query<{ schema: string }>('SELECT current_schema() AS schema');
      const schema = row!.schema;
      const users = async (args: string[], password = '') => {
        try {
          const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', ...args], {
            env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL, PGOPTIONS: `-c search_path=${schema}`, USER_PASSWORD: password },
          });
          return { code: 0, out: stdout + stderr };
        } catch (error) {
          const e = error as { code: number; stdout: string; stderr: string };
          return { code: e.code, out: e.stdout + e.stderr };
        }
      };
      expect(await users(['add', 'bob'], 'bob first password')).toEqual({ code: 0, out: 'Added bob\n' });
      const token = ((await (await server.login('bob', 'bob first password')).json()) as { access_token: string }).access_token;
      expect((await server.api('/api/feedback', { token })).status).toBe(200);

      expect(await users(['disable', 'bob'])).toEqual({ code: 0, out: 'Disabled bob; 1 session(s) ended\n' });
      expect((await server.api('/api/feedback', { token })).status).toBe(401);
      expect((await server.login('bob', 'bob first password')).status).toBe(401);

      expect((await users(['enable', 'bob'])).code).toBe(0);
      const again = ((await (await server.login('bob', 'bob first password')).json()) as { access_token: string }).access_token;
      expect(await users(['passwd', 'bob'], 'bob second password')).toEqual({
        code: 0,
        out: 'Password changed for bob; 1 session(s) ended\n',
      });
      expect((await server.api('/api/feedback', { token: again })).status).toBe(401);
      expect((await server.login('bob', 'bob first password')).status).toBe(401);
      expect((await server.login('bob', 'bob second password')).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);
});
