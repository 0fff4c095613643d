import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation, newInvitationToken } from '../../server/modules/auth/invitations.ts';
import { revokeInvitation } from '../../server/modules/auth/sql/invitations.ts';
import { runUserCommand } from '../../server/modules/admin/user-commands.ts';
import { serializeRequest } from '../../server/platform/log.ts';
import { STORES, startTestServer, type TestServer, BOUND } from './harness.ts';

const PASSWORD = 'a long enough password';

describe.each(STORES)('invitations on %s store', (store) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(store, { settings: { inviteRateLimit: 0 } });
  });
  afterAll(() => server.close());

  async function invite(options: { userType?: 'Enthusiast' | 'Ustaz' | null; seconds?: number } = {}) {
    const { token, tokenHash } = newInvitationToken();
    const { id } = await createInvitation(server.db, { tokenHash, userType: options.userType ?? null, expiresInSeconds: options.seconds ?? 7 * 86_400 }, new Date(server.clock.ms));
    return { token, id };
  }
  const check = (token: string) => server.api('/api/invitations/check', { json: { token } });
  const accept = (token: string, username: string, extra: Record<string, unknown> = {}) =>
    server.api('/api/invitations/accept', { json: { token, username, password: PASSWORD, ...extra } });
  const userCount = async (username: string) =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE username = $1', [username]))[0]!.n;

  it('makes the account once, signs the reader in as /login would, and refuses the link after', async () => {
    const { token } = await invite();
    const checked = await check(token);
    expect(checked.status).toBe(200);
    expect(await checked.json()).toEqual({ user_type: null, expires_at: new Date(server.clock.ms + 7 * 86_400_000).toISOString() });

    const res = await accept(token, '  Khadija ', { user_type: 'Ustaz' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900, username: 'khadija', user_type: 'Ustaz' });
    expect(await server.auth.authenticate(body.access_token)).toMatchObject({ username: 'khadija' });
    expect((await server.api('/api/refresh', { json: { refresh_token: body.refresh_token } })).status).toBe(200);
    expect((await server.login('khadija', PASSWORD)).status).toBe(200);

    const again = await accept(token, 'someone-else');
    expect(again.status).toBe(410);
    expect(await again.json()).toEqual({ detail: 'This invitation has already been used. If you made an account with it, sign in instead.' });
    expect((await check(token)).status).toBe(410);
    expect(await userCount('someone-else')).toBe(0);
  });

  it('keeps only a hash of the token', async () => {
    const { token, id } = await invite();
    const [row] = await server.db.query<Record<string, unknown>>('SELECT * FROM invitations WHERE id = $1', [id]);
    expect(Object.values(row!).map(String).join(' ')).not.toContain(token);
  });

  it('refuses an expired invitation, by the clock, and makes no account', async () => {
    const { token } = await invite({ seconds: 3600 });
    server.clock.advance(3599);
    expect((await check(token)).status).toBe(200);
    server.clock.advance(1);
    const res = await accept(token, 'late-reader');
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ detail: 'This invitation has expired — ask for a new one.' });
    expect(await (await check(token)).json()).toEqual({ detail: 'This invitation has expired — ask for a new one.' });
    expect(await userCount('late-reader')).toBe(0);
  });

  it('refuses an unknown or revoked link with a plain sentence', async () => {
    const unknown = await accept('not-a-token-we-made', 'nobody');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: 'This invitation link is not valid. Check that it was copied whole, or ask for a new one.' });
    const { token, id } = await invite();
    expect(await revokeInvitation(server.db, id, new Date())).toBe(true);
    const revoked = await accept(token, 'withdrawn');
    expect(revoked.status).toBe(410);
    expect(await revoked.json()).toEqual({ detail: 'This invitation was withdrawn — ask for a new one.' });
    expect(await userCount('withdrawn')).toBe(0);
  });

  it("holds the username and password rules of npm run users, and a taken name leaves the invitation usable", async () => {
    await server.addUser('taken', PASSWORD);
    const { token } = await invite();
    const badName = await accept(token, '-no good');
    expect(badName.status).toBe(400);
    expect(await badName.json()).toEqual({ detail: 'A username is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit' });
    const short = await server.api('/api/invitations/accept', { json: { token, username: 'fine', password: 'short' } });
    expect(await short.json()).toEqual({ detail: 'Password must be at least 8 characters' });
    const taken = await accept(token, 'Taken');
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ detail: 'The name taken is taken. Please choose another.' });
    expect((await accept(token, 'fine')).status).toBe(200);
  });

  it('keeps the user type an invitation fixes', async () => {
    const { token } = await invite({ userType: 'Ustaz' });
    expect(await (await check(token)).json()).toMatchObject({ user_type: 'Ustaz' });
    const other = await accept(token, 'teacher', { user_type: 'Enthusiast' });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ detail: 'This invitation is for an Ustaz account.' });
    const res = await accept(token, 'teacher');
    expect(await res.json()).toMatchObject({ username: 'teacher', user_type: 'Ustaz' });
  });

  it('makes exactly one account from two accepts sent at once', async () => {
    for (const names of [['twin-a', 'twin-b'], ['same', 'same']]) {
      const { token, id } = await invite();
      const replies = await Promise.all(names.map((name) => accept(token, name)));
      const [won, lost] = replies.map((r) => r.status).sort();
      expect(won).toBe(200);
      // The loser is told the invitation is used (or, racing for the same name, that it is taken).
      expect([409, 410]).toContain(lost);
      const made = await server.db.query<{ username: string }>('SELECT username FROM users WHERE username = ANY($1)', [names]);
      expect(made).toHaveLength(1);
      const [used] = await server.db.query<{ used_by: string }>('SELECT used_by FROM invitations WHERE id = $1', [id]);
      expect(used!.used_by).toBe(made[0]!.username);
    }
  });

  it('forgets which invitation made an account when the reader is forgotten (npm run users -- forget)', async () => {
    const { token, id } = await invite();
    expect((await accept(token, 'private-reader')).status).toBe(200);
    expect(await runUserCommand(server.db, { command: 'forget', username: 'private-reader' }, { dailyRoundBound: BOUND })).toMatch(/^Forgot private-reader/);
    const [row] = await server.db.query<{ used_by: string | null; used_at: Date | null }>('SELECT used_by, used_at FROM invitations WHERE id = $1', [id]);
    expect(row).toMatchObject({ used_by: null, used_at: expect.any(Date) as unknown });
    expect((await accept(token, 'second-go')).status).toBe(410);
  });

  it('limits tries per address across instances on one store, with Retry-After', async () => {
    const first = await startTestServer(store, { settings: { inviteRateLimit: 3 } });
    const second = await startTestServer(store, { settings: { inviteRateLimit: 3 }, sharedDb: first.db });
    try {
      first.clock.ms = second.clock.ms;
      const tries = (s: TestServer) => s.api('/api/invitations/check', { json: { token: 'guess' } });
      expect((await tries(first)).status).toBe(404);
      expect((await tries(second)).status).toBe(404);
      expect((await tries(first)).status).toBe(404);
      const limited = await tries(second);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await limited.json()) as { detail: string }).detail).toMatch(/^Too many tries at an invitation from your address\. Try again in \d+ seconds?\.$/);
      // The accept counts too, and is refused before any password is hashed.
      expect((await first.api('/api/invitations/accept', { json: { token: 'guess', username: 'x', password: PASSWORD } })).status).toBe(429);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('the request log', () => {
  it("hides an invitation link's token", () => {
    expect(serializeRequest({ method: 'GET', url: '/invite/abcDEF_123' })).toMatchObject({ path: '/invite/[redacted]' });
  });
});
