import { execFile, spawn } from 'node:child_process';
import { decodeProtectedHeader } from 'jose';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pidNamespace, processStart } from '../../server/platform/store/data-dir-lock.ts';
import { addFittedModels } from '../run-fixtures.ts';
import { startServerProcess, type RunningServer } from './server-process.ts';

const run = promisify(execFile);

/** `npm run users -- …` (or another admin CLI) against the server's data folder; exit code and output. */
async function users(dataDir: string, args: string[], password = '', cli = 'server/cli/users.ts') {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', USER_PASSWORD: password },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('npm run users while the server runs on the embedded store', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServerProcess({ DEMO_PASSWORD: 'demo password 1' });
  });
  afterAll(() => server?.stop());

  const login = (username: string, password: string) =>
    fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password, grant_type: 'password' }),
    });
  const tokenOf = async (res: Response) => ((await res.json()) as { access_token: string }).access_token;
  const feedback = (token: string) => fetch(`${server.url}/api/feedback`, { headers: { authorization: `Bearer ${token}` } });

  it('adds a user the running server can sign in at once', async () => {
    expect(await users(server.dataDir, ['add', 'bob'], 'bob first password')).toEqual({ code: 0, out: 'Added bob\n' });
    expect((await login('bob', 'bob first password')).status).toBe(200);
  });

  it('disables a user with effect at once: the old token gets 401, the password fails, and it survives a restart', async () => {
    const token = await tokenOf(await login('bob', 'bob first password'));
    expect((await feedback(token)).status).toBe(200);
    const disabled = await users(server.dataDir, ['disable', 'bob']);
    expect(disabled.code).toBe(0);
    expect(disabled.out).toMatch(/^Disabled bob; [1-9]\d* session\(s\) ended\n$/);
    expect((await feedback(token)).status).toBe(401);
    expect((await login('bob', 'bob first password')).status).toBe(401);

    await server.stop();
    server = await startServerProcess({ DATA_DIR: server.dataDir });
    expect((await login('bob', 'bob first password')).status).toBe(401);
    expect((await users(server.dataDir, ['list'])).out).toMatch(/^bob\tdisabled/m);
    expect((await users(server.dataDir, ['enable', 'bob'])).out).toBe('Enabled bob\n');
    expect((await login('bob', 'bob first password')).status).toBe(200);
  });

  it('changes a password with effect at once, and runs two commands at the same time without harm', async () => {
    const token = await tokenOf(await login('bob', 'bob first password'));
    const [passwd, list] = await Promise.all([
      users(server.dataDir, ['passwd', 'bob'], 'bob second password'),
      users(server.dataDir, ['list']),
    ]);
    expect(passwd.code).toBe(0);
    expect(passwd.out).toMatch(/^Password changed for bob; [1-9]\d* session\(s\) ended\n$/);
    expect(list).toMatchObject({ code: 0 });
    expect(list.out).toMatch(/^demo\tactive/m);
    expect((await feedback(token)).status).toBe(401);
    expect((await login('bob', 'bob first password')).status).toBe(401);
    expect((await login('bob', 'bob second password')).status).toBe(200);
  });

  it('reports the store refusing a command as a failure, changing nothing', async () => {
    expect(await users(server.dataDir, ['disable', 'nobody'])).toEqual({ code: 2, out: 'No user nobody\n' });
    expect(await users(server.dataDir, ['add', 'bob'], 'another password')).toEqual({ code: 2, out: 'User bob already exists\n' });
  });

  it('rotates the signing key while the server runs: tokens signed before keep working, and new ones carry the new key', async () => {
    const keys = (args: string[]) => users(server.dataDir, args, '', 'server/cli/keys.ts');
    const before = await tokenOf(await login('demo', 'demo password 1'));
    const rotated = await keys(['rotate']);
    expect(rotated.code).toBe(0);
    const kid = /^Added signing key (\S+)\./.exec(rotated.out)?.[1];
    expect(kid).toBeDefined();
    const listed = await keys(['list']);
    expect(listed.out.trim().split('\n')).toHaveLength(2);
    expect(listed.out).toMatch(new RegExp(`^${kid}\tsince \\S+\tsigning$`, 'm'));
    expect((await feedback(before)).status).toBe(200);

    await server.stop();
    server = await startServerProcess({ DATA_DIR: server.dataDir });
    const after = await tokenOf(await login('demo', 'demo password 1'));
    expect(decodeProtectedHeader(after).kid).toBe(kid);
    expect((await feedback(before)).status).toBe(200);
    expect((await feedback(after)).status).toBe(200);
    expect((await keys(['turn'])).code).toBe(2);
  });

  it('will not let a second server open the same data folder', async () => {
    await expect(startServerProcess({ DATA_DIR: server.dataDir })).rejects.toThrow(
      new RegExp(`Another server \\(process ${server.process.pid}\\) is using`),
    );
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('starts once a command holding the data folder has finished, instead of failing', async () => {
    await server.stop();
    // A command's lock, as npm run users leaves it while its change is made: held by a live process.
    const command = spawn('sleep', ['3']);
    await new Promise((resolve) => command.once('spawn', resolve));
    await writeFile(
      path.join(server.dataDir, 'pgdata.lock'),
      `${command.pid}\n${processStart(command.pid!)}\n${pidNamespace()}\ncommand\n`,
    );
    server = await startServerProcess({ DATA_DIR: server.dataDir });
    expect(command.exitCode).toBe(0);
    // It said what it was waiting for.
    expect(server.output()).toContain(`waiting for a command (process ${command.pid}) to finish with`);
    expect((await login('demo', 'demo password 1')).status).toBe(200);
  });

  it('reaches a server whose data folder is too deep for a Unix socket path, with effect at once', async () => {
    // admin.sock's path is past sockaddr_un's 107 bytes: both sides reach it through a handle on the folder.
    const deep = `${server.dataDir}-${'d'.repeat(100)}`;
    await addFittedModels(deep);
    const other = await startServerProcess({ DATA_DIR: deep, DEMO_PASSWORD: 'demo password 1' });
    try {
      const signIn = () =>
        fetch(`${other.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: 'demo', password: 'demo password 1', grant_type: 'password' }),
        });
      expect((await signIn()).status).toBe(200);
      expect(await users(deep, ['disable', 'demo'])).toMatchObject({ code: 0, out: expect.stringMatching(/^Disabled demo/) });
      expect((await signIn()).status).toBe(401);
    } finally {
      await other.stop();
    }
    expect((await users(deep, ['list'])).out).toMatch(/^demo\tdisabled/m);
  });

  it('refuses, and says why, when the server holding the folder cannot be asked', async () => {
    const folder = `${server.dataDir}-unreachable`;
    await addFittedModels(folder);
    const other = await startServerProcess({ DATA_DIR: folder, DEMO_PASSWORD: 'demo password 1' });
    try {
      // Its socket file gone (removed by hand): the server still holds the folder, and nobody answers.
      await rm(path.join(folder, 'admin.sock'));
      const refused = await users(folder, ['disable', 'demo']);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain(`The server (process ${other.process.pid}) has the database in ${folder} open`);
      expect(refused.out).toContain('Nothing was changed');
    } finally {
      await other.stop();
    }
    expect((await users(folder, ['list'])).out).toMatch(/^demo\tactive/m);
  });
});
