import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendUserCommand } from '../../server/modules/admin/admin-client.ts';
import { adminSocketPath, listenForAdmin } from '../../server/modules/admin/admin-socket.ts';
import type { UserCommand } from '../../server/modules/admin/user-commands.ts';
import { hashPassword } from '../../server/modules/auth/passwords.ts';
import { ConfigError } from '../../server/platform/config/config.ts';
import { createLogger } from '../../server/platform/log.ts';
import { listUsers } from '../../server/modules/auth/sql/users.ts';
import { openTestDb, type TestDb, BOUND } from './harness.ts';

describe('the admin socket a server on the embedded store answers', () => {
  let test: TestDb;
  let admin: FastifyInstance | null;
  let socket: string;

  beforeAll(async () => {
    test = await openTestDb('embedded');
    const dir = await mkdtemp(path.join(tmpdir(), 'admin-'));
    admin = await listenForAdmin(test.db, dir, createLogger('silent'), { dailyRoundBound: BOUND });
    socket = adminSocketPath(dir);
  });
  afterAll(async () => {
    await admin?.close();
    await test.drop();
  });

  it('runs each kind of command it is sent', async () => {
    const hash = await hashPassword('a good password');
    expect(await sendUserCommand(socket, { command: 'add', username: 'amina', passwordHash: hash })).toEqual({ ok: true, status: 200, message: 'Added amina' });
    expect(await sendUserCommand(socket, { command: 'disable', username: 'amina' })).toMatchObject({ ok: true, message: expect.stringMatching(/^Disabled amina/) });
    expect((await sendUserCommand(socket, { command: 'list' })).message).toMatch(/^amina\tdisabled/);
    expect((await sendUserCommand(socket, { command: 'keys-rotate' })).message).toMatch(/^Added signing key /);
  });

  it('stops the start with one sentence where a folder stands at the socket’s path, removing nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'admin-'));
    await mkdir(path.join(adminSocketPath(dir), 'kept'), { recursive: true });
    const failure = listenForAdmin(test.db, dir, createLogger('silent'), { dailyRoundBound: BOUND });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(`${adminSocketPath(dir)} is a folder, where the server's admin socket goes`);
    expect(existsSync(path.join(adminSocketPath(dir), 'kept'))).toBe(true);
  });

  it('refuses a command that lacks what it needs, or carries what it should not, changing nothing', async () => {
    const before = await listUsers(test.db);
    const malformed = [
      { command: 'add', username: 'bilal' }, // no password hash
      { command: 'add', username: 'bilal', passwordHash: 'plain text' }, // not an argon2id hash
      { command: 'disable' }, // no name
      { command: 'list', username: 'amina', extra: true },
      { command: 'drop-everything' },
    ];
    for (const command of malformed) {
      const reply = await sendUserCommand(socket, command as unknown as UserCommand);
      expect(reply.ok, JSON.stringify(command)).toBe(false);
    }
    expect(await listUsers(test.db)).toEqual(before);
  });

  it('says why, and logs it, when the store fails under a command (a full disk): a refusal, not the operator’s mistake', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'admin-'));
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const full = () => Promise.reject(new Error('could not extend file "base/5/16400": No space left on device'));
    const failing = { ...test.db, kind: test.db.kind, query: full, transaction: full };
    const broken = await listenForAdmin(failing, dir, log, { dailyRoundBound: BOUND });
    try {
      const reply = await sendUserCommand(adminSocketPath(dir), { command: 'forget', username: 'amina' });
      expect(reply).toEqual({
        ok: false,
        status: 503,
        message: 'The server could not carry out the command (could not extend file "base/5/16400": No space left on device). Nothing was changed.',
      });
      expect(lines.some((line) => line.includes('user command failed') && line.includes('No space left on device'))).toBe(true);
    } finally {
      await broken?.close();
    }
  });
});
