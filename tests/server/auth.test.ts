import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../server/modules/auth/tokens.ts';
import { STORES, TEST_KEY, startTestServer, voteItem, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';

async function tokensOf(res: Response): Promise<{ access_token: string; refresh_token: string }> {
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

describe.each(STORES)('auth on %s store', (store) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(store);
    await server.addUser('reader', PASSWORD);
    await server.addUser('ustaz', PASSWORD);
  });
  afterAll(() => server.close());

  const refresh = (token: string) => server.api('/api/refresh', { json: { refresh_token: token } });
  const save = (token: string) =>
    server.api('/api/save', {
      token,
      json: {
        items: [voteItem()],
      },
    });

  describe('POST /api/login', () => {
    it('returns a bearer token pair with a signed access token carrying the listed claims', async () => {
      const res = await server.login('reader', PASSWORD);
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900 });
      const access = String(body.access_token);
      // The key's id names the signing key, so that any instance can pick the key to verify with.
      expect(decodeProtectedHeader(access)).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: expect.stringMatching(/^static-[\w-]{12}$/) });
      const claims = decodeJwt(access);
      expect(claims).toMatchObject({ sub: 'reader', iss: 'alchemy-search', aud: 'alchemy-search-api' });
      expect(typeof claims.sid).toBe('string');
      expect(typeof claims.jti).toBe('string');
      expect(claims.exp! - claims.iat!).toBe(900);
      expect(String(body.refresh_token).length).toBeGreaterThanOrEqual(22); // ≥ 128 bits, base64url
    });

    it('accepts the username in any case and with surrounding spaces', async () => {
      expect((await server.login('  Reader ', PASSWORD)).status).toBe(200);
    });

    it('gives an unknown user and a wrong password the same reply', async () => {
      const unknown = await server.login('nobody-here', PASSWORD);
      const wrong = await server.login('ustaz', 'not the password');
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(await unknown.json()).toEqual({ detail: 'Incorrect username or password' });
      expect(await wrong.json()).toEqual({ detail: 'Incorrect username or password' });
    });

    it('answers 400 naming a missing field, and for a grant_type other than password', async () => {
      const form = (fields: Record<string, string>) =>
        server.api('/api/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        });
      const missing = await form({ username: 'reader', grant_type: 'password' });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ detail: 'password is required' });
      const grant = await form({ username: 'reader', password: PASSWORD, grant_type: 'client_credentials' });
      expect(grant.status).toBe(400);
      expect(((await grant.json()) as { detail: string }).detail).toBe('grant_type must be one of password');
    });

    it('does not store the refresh token in the clear', async () => {
      const { refresh_token } = await tokensOf(await server.login('reader', PASSWORD));
      const rows = await server.db.query<{ token_hash: string }>('SELECT token_hash FROM refresh_tokens');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.token_hash === refresh_token)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    });
  });

  describe('POST /api/refresh', () => {
    it('rotates the refresh token and issues a new access token for the same session', async () => {
      const first = await tokensOf(await server.login('reader', PASSWORD));
      const second = await tokensOf(await refresh(first.refresh_token));
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(decodeJwt(second.access_token).sid).toBe(decodeJwt(first.access_token).sid);
      expect((await save(second.access_token)).status).toBe(200);
    });

    it('accepts the token just rotated out again within the overlap window (two tabs)', async () => {
      const first = await tokensOf(await server.login('reader', PASSWORD));
      const tabA = await tokensOf(await refresh(first.refresh_token));
      server.clock.advance(20);
      const tabB = await tokensOf(await refresh(first.refresh_token));
      // Both tabs carry on: neither was taken for a thief.
      expect((await refresh(tabA.refresh_token)).status).toBe(200);
      expect((await refresh(tabB.refresh_token)).status).toBe(200);
    });

    it('treats a rotated-out token presented after the window as reuse and revokes the whole session', async () => {
      const first = await tokensOf(await server.login('reader', PASSWORD));
      const second = await tokensOf(await refresh(first.refresh_token));
      server.clock.advance(31);
      const replay = await refresh(first.refresh_token);
      expect(replay.status).toBe(401);
      expect(await replay.json()).toEqual({ detail: 'Session expired. Please login again.' });
      // The legitimate holder's newer tokens die with the session.
      expect((await refresh(second.refresh_token)).status).toBe(401);
      expect((await save(second.access_token)).status).toBe(401);
    });

    it('rejects an unknown token with the session-expired sentence, and a missing one with 400', async () => {
      const res = await refresh('not-a-token-we-issued');
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: 'Session expired. Please login again.' });
      const missing = await server.api('/api/refresh', { json: {} });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ detail: 'refresh_token is required' });
      const wrongType = await server.api('/api/refresh', { json: { refresh_token: 42 } });
      expect(wrongType.status).toBe(400);
      expect(await wrongType.json()).toEqual({ detail: 'refresh_token must be a string' });
    });

    it('ends a session left idle longer than the idle lifetime', async () => {
      const first = await tokensOf(await server.login('reader', PASSWORD));
      server.clock.advance(14 * 86400 + 1);
      expect((await refresh(first.refresh_token)).status).toBe(401);
    });

    it('ends a session at its absolute lifetime even when used every day', async () => {
      let tokens = await tokensOf(await server.login('reader', PASSWORD));
      for (let day = 0; day < 29; day++) {
        server.clock.advance(86400);
        tokens = await tokensOf(await refresh(tokens.refresh_token));
      }
      server.clock.advance(86400 + 1);
      expect((await refresh(tokens.refresh_token)).status).toBe(401);
    });
  });

  describe('POST /api/logout', () => {
    it('revokes the session: its refresh token and its access token stop working at once', async () => {
      const tokens = await tokensOf(await server.login('reader', PASSWORD));
      expect((await save(tokens.access_token)).status).toBe(200);
      const out = await server.api('/api/logout', { method: 'POST', token: tokens.access_token });
      expect(out.status).toBe(200);
      expect(await out.json()).toEqual({ detail: 'Logged out' });
      expect((await save(tokens.access_token)).status).toBe(401);
      expect((await refresh(tokens.refresh_token)).status).toBe(401);
    });

    it('logs out whatever the empty body is labelled: an empty JSON body too', async () => {
      for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, {}] as Array<Record<string, string>>) {
        const tokens = await tokensOf(await server.login('reader', PASSWORD));
        // As bytes: fetch labels a string body text/plain itself, and the last case is unlabelled.
        const out = await server.api('/api/logout', { method: 'POST', token: tokens.access_token, headers, body: new Uint8Array(0) });
        expect(out.status).toBe(200);
        expect((await refresh(tokens.refresh_token)).status).toBe(401);
      }
    });

    it('leaves the reader’s other sessions signed in', async () => {
      const phone = await tokensOf(await server.login('reader', PASSWORD));
      const laptop = await tokensOf(await server.login('reader', PASSWORD));
      await server.api('/api/logout', { method: 'POST', token: phone.access_token });
      expect((await save(laptop.access_token)).status).toBe(200);
    });

    it('answers 401 without a valid token', async () => {
      expect((await server.api('/api/logout', { method: 'POST' })).status).toBe(401);
      expect((await server.api('/api/logout', { method: 'POST', token: 'garbage' })).status).toBe(401);
    });
  });

  describe('access tokens', () => {
    async function session() {
      const tokens = await tokensOf(await server.login('reader', PASSWORD));
      return decodeJwt(tokens.access_token);
    }

    it('rejects alg none', async () => {
      const claims = await session();
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      expect((await save(`${header}.${payload}.`)).status).toBe(401);
    });

    it('rejects a changed signature and a token signed with another key', async () => {
      const tokens = await tokensOf(await server.login('reader', PASSWORD));
      const [h, p, s] = tokens.access_token.split('.');
      const flipped = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
      expect((await save(flipped)).status).toBe(401);
      const claims = await session();
      // The same key id as the real key's, and a secret of the forger's own.
      const { kid } = decodeProtectedHeader(tokens.access_token);
      const forged = await signAccessToken(
        { kid: String(kid), secret: new TextEncoder().encode('another-key-another-key-another-key!') },
        { username: 'reader', sessionId: String(claims.sid) },
        Math.floor(server.clock.ms / 1000),
        900,
      );
      expect((await save(forged)).status).toBe(401);
    });

    it('rejects a token past its exp', async () => {
      const tokens = await tokensOf(await server.login('reader', PASSWORD));
      server.clock.advance(901);
      const res = await save(tokens.access_token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('rejects a correctly signed token of the wrong type or audience', async () => {
      const claims = await session();
      const now = Math.floor(server.clock.ms / 1000);
      const idToken = await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('reader')
        .setJti('x')
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .setIssuer('alchemy-search')
        .setAudience('alchemy-search-api')
        .sign(TEST_KEY);
      expect((await save(idToken)).status).toBe(401);
      const otherAudience = await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setSubject('reader')
        .setJti('y')
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .setIssuer('alchemy-search')
        .setAudience('someone-else')
        .sign(TEST_KEY);
      expect((await save(otherAudience)).status).toBe(401);
    });
  });
});
