import { act, renderHook } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { authorizedFetch, setOnSessionLost } from '../../src/lib/api/http-client.ts';
import { useSessionCheck } from '../../src/features/session/use-session-check.ts';
import { tokenExpiresAt } from '../../src/features/session/token-timing.ts';
import { syncSessionAcrossTabs, useSession } from '../../src/features/session/session-store.ts';
import { signIn, signOut } from '../../src/features/session/sign-in.ts';
import { PORTAL_PAGE, startStandInPortal, type PortalAnswer } from '../fixtures/stand-in-portal.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

const PASSWORD = 'correct horse battery';

describe('session store and HTTP client, against the real API', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('embedded', { settings: { accessTokenTtlSeconds: 900 } });
    await server.addUser('reader', PASSWORD);
    setApiBase(`${server.url}/api`);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    useSession.getState().clearSession();
    // The server's clock agrees with the device's unless a test says otherwise.
    server.clock.ms = Date.now();
    window.localStorage.removeItem('serverClockOffset');
  });
  afterEach(() => vi.useRealTimers());

  /** Signs in on a server of the test's own (whose database it may then take away), then comes back to the shared one. */
  async function signedInOnAServerOfItsOwn(test: (own: TestServer) => Promise<void>): Promise<void> {
    const own = await startTestServer('embedded');
    try {
      await own.addUser('reader', PASSWORD);
      setApiBase(`${own.url}/api`);
      await signIn('reader', PASSWORD);
      await test(own);
    } finally {
      setApiBase(`${server.url}/api`);
      await own.app.close();
    }
  }

  const refreshCount = async () =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens'))[0]!.n;

  it('signs in: stores authTokens {access, refresh}, records the username', async () => {
    await signIn('Reader', PASSWORD);
    const state = useSession.getState();
    expect(state.isAuthenticated).toBe(true);
    expect(state.user).toBe('reader');
    expect(JSON.parse(window.localStorage.getItem('authTokens')!)).toEqual(state.authTokens);
    expect(Object.keys(state.authTokens!)).toEqual(['access', 'refresh']);
  });

  it('reports the server’s detail on a failed sign-in, and a network error when nobody answers', async () => {
    await expect(signIn('reader', 'wrong password')).rejects.toThrow('Incorrect username or password');
    setApiBase('http://127.0.0.1:1/api');
    await expect(signIn('reader', PASSWORD)).rejects.toThrow('Network error. Please try again.');
    setApiBase(`${server.url}/api`);
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  it('keeps userType apart, Enthusiast by default, and persists a change', () => {
    expect(useSession.getState().userType).toBe('Enthusiast');
    useSession.getState().setUserType('Ustaz');
    expect(window.localStorage.getItem('userType')).toBe('Ustaz');
    expect(useSession.getState().userType).toBe('Ustaz');
  });

  it('runs one refresh at a time: concurrent calls share one rotation', async () => {
    await signIn('reader', PASSWORD);
    const before = await refreshCount();
    const [a, b, c] = await Promise.all([
      useSession.getState().refreshToken(),
      useSession.getState().refreshToken(),
      useSession.getState().refreshToken(),
    ]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(await refreshCount()).toBe(before + 1);
  });

  it('signs out when a refresh fails', async () => {
    await signIn('reader', PASSWORD);
    await server.api('/api/logout', { method: 'POST', token: useSession.getState().authTokens!.access });
    await expect(useSession.getState().refreshToken()).rejects.toThrow('Session expired. Please login again.');
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(window.localStorage.getItem('authTokens')).toBeNull();
  });

  it('stays signed in when a refresh gets no answer, and says so', async () => {
    await signIn('reader', PASSWORD);
    setApiBase('http://127.0.0.1:1/api');
    await expect(useSession.getState().refreshToken()).rejects.toThrow('Network error during token refresh');
    setApiBase(`${server.url}/api`);
    expect(useSession.getState().isAuthenticated).toBe(true);
    expect(await useSession.getState().refreshToken()).toMatch(/^ey/);
  });

  it('stays signed in when something other than the server answers a refresh (a captive portal, a proxy’s page, a redirect), and never follows it', async () => {
    await signIn('reader', PASSWORD);
    const tokens = useSession.getState().authTokens;
    // A stand-in for a hotel Wi-Fi's portal or a misrouted proxy, answering in turn with each of these.
    const answers: PortalAnswer[] = [
      PORTAL_PAGE,
      [200, { 'content-type': 'application/json' }, '{"ok":true}'],
      [403, { 'content-type': 'text/html' }, '<html>403 Forbidden</html>'],
      [400, { 'content-type': 'text/html' }, '<html>400 Bad Request (nginx)</html>'],
      [307, { location: `${server.url}/api/refresh` }, ''],
      PORTAL_PAGE,
      [307, { location: `${server.url}/api/login` }, ''],
      [302, { location: 'http://portal.example/login' }, ''],
    ];
    const portal = await startStandInPortal((n) => answers[n]!);
    setApiBase(portal.api);
    const before = await refreshCount();
    try {
      for (let i = 0; i < 5; i++) {
        await expect(useSession.getState().refreshToken()).rejects.toThrow('Network error during token refresh');
        expect(useSession.getState()).toMatchObject({ isAuthenticated: true, user: 'reader', authTokens: tokens });
      }
      // A sign-in answered by the portal's page, or redirected, says the server was not reached.
      for (let i = 0; i < 3; i++) {
        await expect(signIn('reader', PASSWORD)).rejects.toThrow('Network error. Please try again.');
      }
    } finally {
      setApiBase(`${server.url}/api`);
      portal.close();
    }
    // The redirect was not followed: the refresh token never reached the server that way.
    expect(await refreshCount()).toBe(before);
    expect(await useSession.getState().refreshToken()).toMatch(/^ey/);
  });

  it('stays signed in when a refresh meets a 503, the database being away, and keeps its tokens', async () => {
    // A server of its own, whose database then goes away: /api/refresh answers 503 with Retry-After.
    await signedInOnAServerOfItsOwn(async (failing) => {
      const tokens = useSession.getState().authTokens;
      await failing.db.close();
      const reply = await failing.api('/api/refresh', { json: { refresh_token: tokens!.refresh } });
      expect(reply.status).toBe(503);
      await expect(useSession.getState().refreshToken()).rejects.toThrow('The database is unavailable. Please try again shortly.');
      expect(useSession.getState()).toMatchObject({ isAuthenticated: true, user: 'reader', authTokens: tokens });
      expect(window.localStorage.getItem('authTokens')).toBe(JSON.stringify(tokens));
    });
  });

  it('keeps the session when a 401 is followed by a refresh the server cannot serve now', async () => {
    const lost = vi.fn();
    setOnSessionLost(lost);
    await signedInOnAServerOfItsOwn(async (failing) => {
      const tokens = useSession.getState().authTokens;
      failing.clock.advance(901); // the access token has expired by the server's clock
      await failing.db.close(); // and its database has gone: the refresh gets a 503
      await expect(authorizedFetch('/feedback')).rejects.toThrow('The database is unavailable. Please try again shortly.');
      expect(lost).not.toHaveBeenCalled();
      expect(useSession.getState()).toMatchObject({ isAuthenticated: true, authTokens: tokens });
    });
  });

  it('logs out on the server, then clears tokens and user', async () => {
    await signIn('reader', PASSWORD);
    const { refresh } = useSession.getState().authTokens!;
    await signOut();
    expect(useSession.getState()).toMatchObject({ isAuthenticated: false, user: null, authTokens: null });
    expect((await server.api('/api/refresh', { json: { refresh_token: refresh } })).status).toBe(401);
  });

  it('clears the local session even when the server cannot be told, and only logs the error', async () => {
    await signIn('reader', PASSWORD);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setApiBase('http://127.0.0.1:1/api');
    await signOut();
    setApiBase(`${server.url}/api`);
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('refreshes on demand when under 30 seconds remain, and not before', async () => {
    await signIn('reader', PASSWORD);
    const first = useSession.getState().authTokens!.access;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 800_000); // 100 s left
    expect(await useSession.getState().getAccessToken()).toBe(first);
    vi.setSystemTime(Date.now() + 80_000); // 20 s left
    server.clock.advance(880);
    const second = await useSession.getState().getAccessToken();
    expect(second).not.toBe(first);
  });

  it('counts a token’s time by the server’s clock: a device an hour ahead does not refresh before every request', async () => {
    server.clock.advance(-3600); // the server's clock is an hour behind the device's
    await signIn('reader', PASSWORD);
    const before = await refreshCount();
    const first = useSession.getState().authTokens!.access;
    expect(await useSession.getState().getAccessToken()).toBe(first);
    expect((await authorizedFetch('/feedback')).status).toBe(200);
    expect(await refreshCount()).toBe(before);
  });

  it('retries a 401 once after a refresh', async () => {
    await signIn('reader', PASSWORD);
    const before = await refreshCount();
    server.clock.advance(901); // the server now finds the access token expired; the client does not know
    const response = await authorizedFetch('/feedback');
    expect(response.status).toBe(200);
    expect(await refreshCount()).toBe(before + 1);
  });

  it('clears the session and sends the reader to / when the refresh after a 401 fails', async () => {
    await signIn('reader', PASSWORD);
    const lost = vi.fn();
    setOnSessionLost(lost);
    const { access } = useSession.getState().authTokens!;
    await server.api('/api/logout', { method: 'POST', token: access });
    await expect(authorizedFetch('/feedback')).rejects.toThrow('Session expired. Please login again.');
    expect(lost).toHaveBeenCalledTimes(1);
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  it('ends a 401 without a refresh token in "No refresh token" and a sign-out', async () => {
    await signIn('reader', PASSWORD);
    const { access } = useSession.getState().authTokens!;
    await server.api('/api/logout', { method: 'POST', token: access });
    useSession.setState({ authTokens: { access, refresh: '' } });
    await expect(authorizedFetch('/feedback')).rejects.toThrow('No refresh token');
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  it('checks the session every 60 s and refreshes under 5 minutes left', async () => {
    await signIn('reader', PASSWORD);
    const first = useSession.getState().authTokens!.access;
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    renderHook(() => useSessionCheck());
    const expiresAt = tokenExpiresAt(first)!;
    vi.setSystemTime(expiresAt - 460_000); // at the check, 400 s left: it leaves the token alone
    await act(async () => vi.advanceTimersByTime(60_000));
    expect(useSession.getState().authTokens!.access).toBe(first);
    vi.setSystemTime(expiresAt - 280_000); // at the check, 220 s left: it refreshes
    await act(async () => vi.advanceTimersByTime(60_000));
    await vi.waitFor(() => expect(useSession.getState().authTokens!.access).not.toBe(first), { timeout: 10_000 });
  });

  it('follows a sign-in or sign-out made in another tab', async () => {
    const stop = syncSessionAcrossTabs();
    await signIn('reader', PASSWORD);
    const tokens = window.localStorage.getItem('authTokens');
    // Another tab signs out...
    window.localStorage.removeItem('authTokens');
    window.dispatchEvent(new StorageEvent('storage', { key: 'authTokens', newValue: null }));
    expect(useSession.getState().isAuthenticated).toBe(false);
    // ...and back in.
    window.localStorage.setItem('authTokens', tokens!);
    window.dispatchEvent(new StorageEvent('storage', { key: 'authTokens', newValue: tokens }));
    expect(useSession.getState()).toMatchObject({ isAuthenticated: true, user: 'reader' });
    stop();
  });
});
