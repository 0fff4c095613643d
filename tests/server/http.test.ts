import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../server/platform/http/errors.ts';
import { earlyInputScriptHash } from '../../server/platform/http/security-headers.ts';
import { startTestServer, writeFakeBuild, type TestServer } from './harness.ts';

describe('HTTP behaviour shared by every route', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('embedded', {
      // HTTP itself is what this suite tests: its requests go over the socket.
      http: true,
      staticDir: await writeFakeBuild(),
      testRoutes: async (api) => {
        api.get('/boom', async () => {
          throw new Error('secret internal detail');
        });
        api.get('/teapot', async () => {
          throw new HttpError(418, 'I am a teapot');
        });
      },
    });
  });
  afterAll(() => server.close());

  it('answers health with the database kind', async () => {
    const res = await server.api('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: 'embedded' });
  });

  it('hides the cause of a 500 from the client and tags the reply with a request id', async () => {
    const res = await server.api('/api/boom');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ detail: 'Internal server error' });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('passes a deliberate client error through as its detail', async () => {
    const res = await server.api('/api/teapot');
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ detail: 'I am a teapot' });
  });

  it('falls back to the PWA shell for client routes', async () => {
    for (const route of ['/', '/dashboard', '/login', '/token-refresh?redirect=%2Fabout', '/some/unknown/path']) {
      const res = await server.api(route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('sends a route the build pre-rendered as that page, and other routes the plain shell', async () => {
    for (const route of ['/login', '/login?next=%2Fabout']) {
      const res = await server.api(route);
      expect(res.headers.get('cache-control'), route).toBe('no-cache');
      expect(await res.text(), route).toContain('<title>login</title>');
    }
    // A page in a sub-folder of the pre-rendered pages: a chapter of the reader.
    expect(await (await server.api('/read/ch4')).text()).toContain('<title>ch4</title>');
    for (const route of ['/dashboard', '/login/extra', '/prerendered', '/read/ch9', '/read']) {
      expect(await (await server.api(route)).text(), route).toContain('<title>shell</title>');
    }
  });

  it('never falls back to the shell under /api, nor for a missing file', async () => {
    for (const route of ['/api/nope', '/api', '/assets/missing.js']) {
      const res = await server.api(route);
      expect(res.status, route).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not found' });
    }
  });

  it('answers a known API path asked with another method 405, naming the methods it takes', async () => {
    const search = await server.api('/api/search');
    expect(search.status).toBe(405);
    expect(search.headers.get('allow')).toBe('POST');
    expect(await search.json()).toEqual({ detail: 'Method not allowed: use POST' });
    const health = await server.api('/api/health?x=1', { method: 'DELETE' });
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET, HEAD');
    expect(health.headers.get('cache-control')).toBe('no-store');
    const save = await server.api('/api/save', { method: 'PUT', body: '{"items":[]}' });
    expect(save.status).toBe(405);
    expect(save.headers.get('allow')).toBe('POST');
  });

  it('sends security headers, with a CSP that allows only our own origin', async () => {
    const res = await server.api('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('never lets an API reply be cached', async () => {
    const res = await server.api('/api/health');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('treats an /api path spelt with percent-escapes as the API it reaches: uncached, and a JSON 404 when unknown', async () => {
    const health = await server.api('/%61pi/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBe('no-store');
    for (const route of ['/%61pi/nope', '/%61%70%69']) {
      const res = await server.api(route);
      expect(res.status, route).toBe(404);
      expect(await res.json(), route).toEqual({ detail: 'Not found' });
    }
    // A client route spelt so is still the app.
    expect(await (await server.api('/log%69n')).text()).toContain('<title>login</title>');
  });

  it('says that a file sent brotli, gzip or plain varies by Accept-Encoding, so that no shared cache mixes them up, and answers a range past its end with its length', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await server.api('/assets/app-abc123.js', { headers: { 'accept-encoding': encoding } });
      expect(res.status, encoding).toBe(200);
      expect(res.headers.get('content-encoding') ?? 'identity', encoding).toBe(encoding);
      expect(res.headers.get('vary'), encoding).toMatch(/accept-encoding/i);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    // A range past the end is refused, saying how long the file is.
    const past = await server.api('/assets/app-abc123.js', { headers: { 'accept-encoding': 'identity', range: 'bytes=99999-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */460');
    expect(await past.json()).toEqual({ detail: 'Range Not Satisfiable' });
    // A file the build left with no other encoding does not vary.
    expect((await server.api('/assets/tiny-abc123.js')).headers.get('vary')).toBeNull();
  });

  it('sends a sign-in form posted without JavaScript back to its page, reading nothing of it', async () => {
    const res = await fetch(`${server.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=demo&password=secret',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
  });

  it('lets exactly the early-input script run inline, by its hash, and WebAssembly compile (the offline search), never text as JavaScript', async () => {
    const csp = (await server.api('/api/health')).headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src 'self' ${earlyInputScriptHash()} 'wasm-unsafe-eval';`);
    expect(csp).not.toContain("'unsafe-eval'");
  });
});
