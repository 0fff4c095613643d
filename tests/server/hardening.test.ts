import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../server/modules/auth/tokens.ts';
import { createLogger } from '../../server/platform/log.ts';
import { corpusEngine } from './engine-helpers.ts';
import { STORES, TEST_KEY, startTestServer, type TestServer } from './harness.ts';
import { parseRawReply, rawExchange } from './raw-http.ts';

const PASSWORD = 'correct horse battery';

function vote(overrides: Record<string, unknown> = {}) {
  return {
    user_type: 'Enthusiast',
    username: 'reader',
    query: 'what is the heart',
    retrieved_text: 'The heart is like a mirror.',
    model_type: 'BGE bge-small-en-v1.5',
    result_label: 'A',
    reaction: '👍',
    confidence_score: 0.5,
    client_id: randomUUID(),
    ...overrides,
  };
}

async function tokenFor(server: TestServer, username = 'reader'): Promise<string> {
  await server.addUser(username, PASSWORD);
  const res = await server.login(username, PASSWORD);
  return ((await res.json()) as { access_token: string }).access_token;
}

const detailOf = async (res: Response) => ((await res.json()) as { detail: string }).detail;

/** Log lines written by the server, as text. */
function captureLog() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: createLogger('info', stream), text: () => text };
}

describe.each(STORES)('hardening on %s store', (store) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    // The second instance shares the first one's store: close it first.
    for (const server of servers.reverse()) await server.close();
    servers.length = 0;
  });
  const start = async (...args: Parameters<typeof startTestServer>) => {
    const server = await startTestServer(...args);
    servers.push(server);
    return server;
  };

  it('checks no password once the limit is reached, even for 200 guesses at once from 200 addresses', async () => {
    const server = await start(store, { extra: { trustProxy: 1 } });
    await server.addUser('reader', PASSWORD);
    const guess = (i: number, password = 'wrong password') =>
      server.api('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `10.0.${i >> 8}.${i & 255}` },
        body: new URLSearchParams({ username: 'reader', password, grant_type: 'password' }).toString(),
      });
    const statuses = (await Promise.all(Array.from({ length: 200 }, (_, i) => guess(i)))).map((r) => r.status);
    // Five free failures (the clock stands still), then the back-off: nothing else was checked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(195);
    // The right password, from a fresh address, waits like everyone else.
    expect((await guess(201, PASSWORD)).status).toBe(429);
    server.clock.advance(2);
    expect((await guess(202, PASSWORD)).status).toBe(200);
  });

  it('lets readers with the right password in when many sign in at once, on one account or from one address', async () => {
    const server = await start(store, { extra: { trustProxy: 1 } });
    const signIn = (username: string, address: string) =>
      server.api('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        body: new URLSearchParams({ username, password: PASSWORD, grant_type: 'password' }).toString(),
      });
    // One reader in eight tabs at once (more than the account's five free failures).
    await server.addUser('reader', PASSWORD);
    const tabs = await Promise.all(Array.from({ length: 8 }, (_, i) => signIn('reader', `10.1.0.${i + 1}`)));
    expect(tabs.map((r) => r.status)).toEqual(Array(8).fill(200));
    // A class of thirty behind one school address (more than the address's twenty).
    const pupils = Array.from({ length: 30 }, (_, i) => `pupil-${i + 1}`);
    for (const pupil of pupils) await server.addUser(pupil, PASSWORD);
    const replies = await Promise.all(pupils.map((pupil) => signIn(pupil, '10.2.0.1')));
    expect(replies.map((r) => r.status)).toEqual(Array(30).fill(200));
  });

  it('counts a reader by the address the proxies saw, never by one the client wrote into X-Forwarded-For', async () => {
    const search = (server: TestServer, forwardedFor: string) =>
      server.api('/api/search', { json: { query: 'patience' }, headers: { 'x-forwarded-for': forwardedFor } });
    // One proxy that adds the address it saw to what the client sent: each request claims a new
    // address first, the one the proxy saw is last.
    const behindOne = await start(store, { extra: { trustProxy: 1, searchRateLimit: 3 } });
    const spoofed = [];
    for (let i = 1; i <= 5; i++) spoofed.push((await search(behindOne, `198.51.100.${i}, 203.0.113.7`)).status);
    expect(spoofed.filter((status) => status === 429)).toHaveLength(2);
    // Readers the proxy saw at different addresses are counted apart.
    expect((await search(behindOne, '198.51.100.1, 203.0.113.8')).status).not.toBe(429);
    // Two proxies in a row (a load balancer, then nginx, each adding what it saw): the reader is
    // the address the first of them saw, second from the end.
    const behindTwo = await start(store, { extra: { trustProxy: 2, searchRateLimit: 3 } });
    const twoHops = [];
    for (let i = 1; i <= 5; i++) twoHops.push((await search(behindTwo, `198.51.100.${i}, 203.0.113.9, 10.0.0.${i}`)).status);
    expect(twoHops.filter((status) => status === 429)).toHaveLength(2);
  });

  it('holds the sign-in limit across two instances on one store', async () => {
    const first = await start(store);
    const second = await start(store, { sharedDb: first.db });
    second.clock.ms = first.clock.ms;
    await first.addUser('reader', PASSWORD);
    const attempts = Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).login('reader', 'wrong password'));
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect((await second.login('reader', PASSWORD)).status).toBe(429);
  });

  it('gives a successful sign-in its count back, so a reader who gets in is not held back', async () => {
    const server = await start(store, {
      settings: { addressPolicy: { freeFailures: 3, maxDelaySeconds: 900, maxFailuresPerHour: 500 } },
    });
    await server.addUser('reader', PASSWORD);
    expect((await server.login('ghost', 'wrong password')).status).toBe(401);
    expect((await server.login('ghost2', 'wrong password')).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await server.login('reader', PASSWORD)).status).toBe(200);
  });

  it('rejects text holding U+0000 with 400 naming the field, and stores nothing', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    const login = await server.login('read\u0000er', PASSWORD);
    expect(login.status).toBe(400);
    expect(await detailOf(login)).toBe('username must not contain the NUL character (U+0000)');
    for (const field of ['query', 'retrieved_text', 'model_type', 'username']) {
      const res = await server.api('/api/save', { token, json: { items: [vote(), vote({ [field]: 'a\u0000b' })] } });
      expect(res.status).toBe(400);
      expect(await detailOf(res)).toBe(`items[1].${field} must not contain the NUL character (U+0000)`);
    }
    expect(await (await server.api('/api/feedback', { token })).json()).toEqual([]);
  });

  it('refuses a vote whose query is spaces or invisible characters only, as search refuses it, and stores nothing', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    for (const query of ['   ', '\t\n', '\u200b', '\u200b\u200c\u200d\u2060\ufeff', ' \u00a0\u3000 ', '\u00ad\u200e', '\u3164\u2800']) {
      const res = await server.api('/api/save', { token, json: { items: [vote(), vote({ query })] } });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(await detailOf(res)).toBe('items[1].query must not be empty (it holds only spaces or invisible characters)');
    }
    expect(await (await server.api('/api/feedback', { token })).json()).toEqual([]);
    // A question with a word among such characters is a question.
    expect((await server.api('/api/save', { token, json: { items: [vote({ query: '\u200bpatience ' })] } })).status).toBe(200);
  });

  it('drops fields it does not know unread, however deep or odd, and serves the request', async () => {
    const server = await start(store, { extra: { engine: await corpusEngine() } });
    const token = await tokenFor(server);
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const extras = `"deep":${deep},"odd":{"a":"nul \\u0000 here","b":1e400},"__proto__":{"admin":true},"constructor":{"prototype":{}}`;
    const json = { 'content-type': 'application/json' };
    const save = await server.api('/api/save', { method: 'POST', token, headers: json, body: `{"items":[${JSON.stringify(vote())}],${extras}}` });
    expect(save.status).toBe(200);
    expect(await save.json()).toEqual({ saved: 1, duplicates: 0 });
    const search = await server.api('/api/search', { method: 'POST', token, headers: json, body: `{"query":"the heart",${extras}}` });
    expect(search.status).toBe(200);
    const refresh = await server.api('/api/refresh', { method: 'POST', headers: json, body: `{"refresh_token":"not one",${extras}}` });
    expect(refresh.status).toBe(401);
  });

  it('takes a client_id or round_id only as a plain UUID, answering 400 for any other spelling and storing nothing', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    const id = randomUUID();
    for (const field of ['client_id', 'round_id']) {
      for (const spelling of [`urn:uuid:${id}`, `URN:UUID:${id}`, `{${id}}`, id.replaceAll('-', '')]) {
        const res = await server.api('/api/save', { token, json: { items: [vote(), vote({ [field]: spelling })] } });
        expect(res.status, spelling).toBe(400);
        expect(await detailOf(res)).toBe(`items[1].${field} must be a UUID`);
      }
    }
    expect(await (await server.api('/api/save', { token, json: { items: [vote({ client_id: id.toUpperCase() })] } })).json()).toEqual({ saved: 1, duplicates: 0 });
    expect(await (await server.api('/api/feedback', { token })).json()).toHaveLength(1);
  });

  it('refuses text with half a surrogate pair instead of storing it altered', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    // As JSON escapes: the only way a lone half can arrive (UTF-8 cannot carry one).
    for (const text of ['\\ud800 alone', 'alone \\udc00', 'reversed \\udc00\\ud800']) {
      const body = `{"items":[${JSON.stringify(vote()).replace('"what is the heart"', `"${text}"`)}]}`;
      const res = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': 'application/json' }, body });
      expect(res.status, text).toBe(400);
      expect(await detailOf(res)).toBe('items[0].query must be valid Unicode text (it holds half of a surrogate pair)');
    }
    // A whole pair (an emoji) is text like any other.
    expect((await server.api('/api/save', { token, json: { items: [vote({ query: 'the heart 🫀' })] } })).status).toBe(200);
    expect(await (await server.api('/api/feedback', { token })).json()).toHaveLength(1);
  });

  it('reads a JSON body as UTF-8 only: another charset gets 415, bytes that are not UTF-8 get 400, and nothing is stored', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    const body = (query: string) => Buffer.from(JSON.stringify({ items: [vote({ query })] }), 'latin1');
    const latin1 = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body: body('café') });
    expect(latin1.status).toBe(415);
    expect(await detailOf(latin1)).toBe('Content-Type must be application/json in UTF-8');
    // "café" in Latin-1, and a lone surrogate as raw bytes (ED A0 80): neither is UTF-8.
    for (const bytes of [body('café'), Buffer.concat([Buffer.from('{"items":[{"query":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}]}')])]) {
      const res = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: bytes });
      expect(res.status).toBe(400);
      expect(await detailOf(res)).toBe('Request body is not valid UTF-8');
    }
    expect(await (await server.api('/api/feedback', { token })).json()).toEqual([]);
    // UTF-8, said or not, is read as before.
    const said = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ items: [vote({ query: 'café' })] }) });
    expect(said.status).toBe(200);
    expect(((await (await server.api('/api/feedback', { token })).json()) as Array<{ query: string }>)[0]!.query).toBe('café');
  });

  it('reads the sign-in form as UTF-8 only: another charset gets 415, bytes that are not UTF-8 get 400', async () => {
    const server = await start(store);
    await server.addUser('reader', PASSWORD);
    const form = 'grant_type=password&username=reader&password=correct+horse+battery';
    const signIn = (contentType: string, body: BodyInit) =>
      server.api('/api/login', { method: 'POST', headers: { 'content-type': contentType }, body });
    for (const charset of ['iso-8859-1', 'utf-16', 'koi8-r']) {
      const res = await signIn(`application/x-www-form-urlencoded; charset=${charset}`, form);
      expect(res.status).toBe(415);
      expect(await detailOf(res)).toBe('Content-Type must be application/x-www-form-urlencoded in UTF-8');
    }
    const latin1 = await signIn('application/x-www-form-urlencoded', Buffer.from('grant_type=password&username=caf\xe9&password=correct+horse+battery', 'latin1'));
    expect(latin1.status).toBe(400);
    expect(await detailOf(latin1)).toBe('Request body is not valid UTF-8');
    // UTF-8, said or not, signs in as before.
    expect((await signIn('application/x-www-form-urlencoded; charset=UTF-8', form)).status).toBe(200);
    expect((await signIn('application/x-www-form-urlencoded', form)).status).toBe(200);
  });

  it('takes no compressed body: a Content-Encoding other than identity gets 415, and nothing is stored', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    const json = JSON.stringify({ items: [vote()] });
    for (const [coding, body] of [['gzip', json], ['gzip', gzipSync(json)], ['br', json]] as const) {
      const res = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': 'application/json', 'content-encoding': coding }, body });
      expect(res.status).toBe(415);
      expect(await detailOf(res)).toBe('Content-Encoding is not supported: send the body uncompressed');
    }
    expect(await (await server.api('/api/feedback', { token })).json()).toEqual([]);
    const plain = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, body: json });
    expect(plain.status).toBe(200);
  });

  it('takes fifty votes with every text at its longest, in a script of four bytes a character', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    const longest = (n: number) => '🌙'.repeat(n);
    const items = Array.from({ length: 50 }, () =>
      vote({ username: longest(200), query: longest(1000), retrieved_text: longest(10000), model_type: longest(200) }),
    );
    const res = await server.api('/api/save', { token, json: { items } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ saved: 50, duplicates: 0 });
  });

  it('rejects numbers past float range with 400 instead of storing null', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    for (const raw of ['1e400', '-1e400']) {
      const body = `{"items":[${JSON.stringify(vote()).replace('"confidence_score":0.5', `"confidence_score":${raw}`)}]}`;
      const res = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(400);
      expect(await detailOf(res)).toBe('items[0].confidence_score must be a finite number');
    }
    expect(await (await server.api('/api/feedback', { token })).json()).toEqual([]);
  });

  it('never fails concurrent batches that carry the same client_ids in different orders', async () => {
    const server = await start(store);
    const token = await tokenFor(server);
    const items = Array.from({ length: 12 }, () => vote());
    const shuffled = () => [...items].sort(() => Math.random() - 0.5);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => server.api('/api/save', { token, json: { items: shuffled() } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const counts = (await Promise.all(replies.map((r) => r.json()))) as Array<{ saved: number; duplicates: number }>;
    expect(counts.reduce((n, c) => n + c.saved, 0)).toBe(12);
    expect(counts.reduce((n, c) => n + c.duplicates, 0)).toBe(12 * 19);
    expect(await (await server.api('/api/feedback?limit=100', { token })).json()).toHaveLength(12);
  });

  it('takes only the content type each endpoint is for, answering 415 with a detail', async () => {
    const server = await start(store, { extra: { engine: await corpusEngine() } });
    const token = await tokenFor(server);
    const jsonLogin = await server.api('/api/login', { json: { username: 'reader', password: PASSWORD, grant_type: 'password' } });
    expect(jsonLogin.status).toBe(415);
    expect(await detailOf(jsonLogin)).toBe('Content-Type must be application/x-www-form-urlencoded');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const formSearch = await server.api('/api/search', { method: 'POST', headers: form, body: 'query=heart' });
    expect(formSearch.status).toBe(415);
    expect(await detailOf(formSearch)).toBe('Content-Type must be application/json');
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const res = await server.api('/api/save', { method: 'POST', token, headers: { 'content-type': type }, body: 'items=1' });
      expect(res.status).toBe(415);
    }
    expect(await (await server.api('/api/feedback', { token })).json()).toEqual([]);
  });

  it('answers 401, not 500, for a validly signed token whose session id is not a UUID', async () => {
    const server = await start(store);
    const now = Math.floor(server.clock.ms / 1000);
    const token = await new SignJWT({ sid: 'not-a-uuid' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject('reader')
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .sign(TEST_KEY);
    const res = await server.api('/api/feedback', { token });
    expect(res.status).toBe(401);
  });
});

describe('errors from every layer, logs and headers', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy'];

  it('answers malformed and over-long addresses as {detail} with the security headers', async () => {
    server = await startTestServer('embedded', { extra: { engine: await corpusEngine() } });
    const cases: Array<[string, number, string]> = [
      [`/api/passages/${'x'.repeat(101)}/context`, 400, 'id must be at most 100 characters'],
      ['/api/passages/%FF/context', 400, 'The address is not valid'],
      [`/api/passages/${'x'.repeat(600)}/context`, 414, 'The address is too long'],
    ];
    for (const [url, status, detail] of cases) {
      const res = await server.api(url);
      expect(res.status, url).toBe(status);
      expect(await res.json()).toEqual({ detail });
      for (const header of SECURITY_HEADERS) expect(res.headers.get(header), `${header} on ${url}`).toBeTruthy();
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers what the HTTP parser refuses, before any route, as {detail} with the security headers', async () => {
    server = await startTestServer('embedded');
    const tooLong = await fetch(`${server.url}/api/health?${'a'.repeat(20_000)}`);
    expect(tooLong.status).toBe(431);
    expect(await tooLong.json()).toEqual({ detail: 'The request headers are too large' });
    for (const header of SECURITY_HEADERS) expect(tooLong.headers.get(header), header).toBeTruthy();
    expect(tooLong.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const { port } = new URL(server.url);
    for (const raw of ['GET /api/health HTTP/1.1\r\nHost: x\r\nX-Ctl: \u0001\r\n\r\n', 'POST /api/save HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n']) {
      const reply = await rawExchange(Number(port), raw);
      const [head, body] = reply.split('\r\n\r\n') as [string, string];
      expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(head).toMatch(/\r\ncontent-security-policy: /);
      expect(JSON.parse(body)).toEqual({ detail: 'The request is not valid HTTP' });
    }

    // A client that keeps its side open after such a reply does not keep the connection.
    const { port: p } = new URL(server.url);
    const lingering = connect({ port: Number(p), host: '127.0.0.1', allowHalfOpen: true }, () =>
      lingering.write('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Ctl: \u0001\r\n\r\n'),
    );
    lingering.resume();
    await new Promise((resolve) => lingering.once('end', resolve));
    const connections = () => new Promise<number>((resolve, reject) => server!.app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    for (let i = 0; i < 50 && (await connections()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await connections()).toBe(0);
    lingering.destroy();
  });

  it('answers an HTTP/1.1 request without a Host as {detail} 400 with the security headers, and serves HTTP/1.0 without one', async () => {
    server = await startTestServer('embedded');
    const { port } = new URL(server.url);
    for (const raw of ['GET /api/health HTTP/1.1\r\n\r\n', 'POST /api/save HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 'GET /api/health HTTP/1.1\r\nHost:\r\n\r\n']) {
      const reply = parseRawReply(await rawExchange(Number(port), raw));
      expect(reply.status, raw).toBe(400);
      expect(JSON.parse(reply.body)).toEqual({ detail: 'The request must name its Host (an HTTP/1.1 request without a Host header is not valid)' });
      for (const header of SECURITY_HEADERS) expect(reply.headers[header], header).toBeTruthy();
      expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(reply.headers['cache-control']).toBe('no-store');
    }
    const old = parseRawReply(await rawExchange(Number(port), 'GET /api/health/live HTTP/1.0\r\n\r\n'));
    expect(old.status).toBe(200);
  });

  it('answers what Node would answer itself, an unknown Expect and a CONNECT, as {detail} with the security headers', async () => {
    server = await startTestServer('embedded');
    const { port } = new URL(server.url);
    const cases: Array<[string, number, string]> = [
      ['POST /api/search HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"query":"patience"}', 417, 'Only the expectation 100-continue is supported'],
      ['CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n', 405, 'This server does not tunnel connections'],
    ];
    for (const [raw, status, detail] of cases) {
      const reply = await rawExchange(Number(port), raw);
      const [head, body] = reply.split('\r\n\r\n') as [string, string];
      expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head).toMatch(/\r\ncontent-security-policy: /);
      expect(JSON.parse(body)).toEqual({ detail });
    }
  });

  it('answers 408 {detail} and closes the connection when a request body never finishes arriving', async () => {
    server = await startTestServer('embedded', { extra: { requestTimeoutMs: 1_000 } });
    const { port } = new URL(server.url);
    // Headers whole, then four bytes of a promised hundred, and nothing more: a slow-loris client.
    const reply = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true }, () =>
        socket.write('POST /api/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"q'),
      );
      socket.on('data', (chunk) => (text += chunk.toString()));
      // The server's end of it, once the reply is written.
      socket.on('end', () => {
        socket.destroy();
        resolve(text);
      });
      socket.on('error', reject);
    });
    const [head, body] = reply.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head).toMatch(/\r\ncontent-security-policy: /);
    expect(JSON.parse(body)).toEqual({ detail: 'The request took too long to arrive' });
  });

  it('reads no more of a no-JavaScript sign-in form than any body may hold: past that the connection is closed', async () => {
    server = await startTestServer('embedded');
    const { port } = new URL(server.url);
    // It promises 26 MB, sends 2 MiB and keeps the connection open: the server closes it.
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true }, () => {
        socket.write('POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 26000000\r\n\r\n');
        socket.write(Buffer.alloc(2 * 1024 * 1024, 'a'));
      });
      socket.resume();
      socket.on('close', () => resolve(true));
      socket.on('error', () => undefined);
    });
    expect(closed).toBe(true);
  });

  it('logs neither query strings nor the SQL parameters of a failed query', async () => {
    const log = captureLog();
    server = await startTestServer('embedded', { extra: { logger: log.logger } });
    const token = await tokenFor(server);
    await server.login('reader', 'hunter2-in-the-body');
    await server.api('/api/login?password=hunter2-in-the-query&access_token=abc.def.ghi', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=reader&password=x&grant_type=password',
    });
    await server.db.query('ALTER TABLE feedback RENAME TO feedback_gone');
    const res = await server.api('/api/save', { token, json: { items: [vote({ retrieved_text: 'a secret vote text' })] } });
    expect(res.status).toBe(500);
    const text = log.text();
    expect(text).toContain('request failed');
    for (const secret of ['hunter2', 'abc.def.ghi', 'a secret vote text', PASSWORD]) expect(text).not.toContain(secret);
    expect(text).toContain('"path":"/api/login"');
  });

  it('logs each request once, when answered: method, path, address, status and time; one the HTTP parser refuses too', async () => {
    const log = captureLog();
    server = await startTestServer('embedded', { extra: { logger: log.logger } });
    expect((await server.api('/api/health/live')).status).toBe(200);
    expect((await server.api('/api/no-such-route?k=v')).status).toBe(404);
    // A path near Node's 16 KB header limit is cut in the log: one line per request stays short.
    const longPath = `/api/${'x'.repeat(12_000)}`;
    expect((await server.api(longPath)).status).toBe(404);
    // One Node's HTTP parser refuses (a control character in a header) is logged too.
    const { port } = new URL(server.url);
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect({ port: Number(port), host: '127.0.0.1' }, () => socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'));
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    const lines = log
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.reqId !== undefined);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request completed', req: expect.objectContaining({ method: 'GET', path: '/api/health/live', remoteAddress: '127.0.0.1' }), statusCode: 200, ms: expect.any(Number) }),
      expect.objectContaining({ msg: 'request completed', req: expect.objectContaining({ path: '/api/no-such-route', query: '[redacted]' }), statusCode: 404 }),
      expect.objectContaining({ msg: 'request completed', req: expect.objectContaining({ path: `${longPath.slice(0, 512)}…`, pathLength: longPath.length }), statusCode: 404 }),
      expect.objectContaining({ msg: 'request refused before routing', reqId: reply.match(/x-request-id: (\S+)/)![1], statusCode: 400, reason: 'HPE_INVALID_HEADER_TOKEN' }),
    ]);
    // The parser refused it before reading a path: the line claims none.
    expect(lines[3]!.req).not.toHaveProperty('path');
    expect(Math.max(...log.text().trim().split('\n').map((line) => line.length))).toBeLessThan(2_000);
  });

  it('rejects a token issued in the future beyond a small clock skew', async () => {
    server = await startTestServer('embedded');
    const token = await tokenFor(server);
    const { sessionId } = (await server.auth.authenticate(token))!;
    const sign = (iat: number) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setSubject('reader')
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + 7200)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .sign(TEST_KEY);
    const now = Math.floor(server.clock.ms / 1000);
    expect((await server.api('/api/feedback', { token: await sign(now + 3600) })).status).toBe(401);
    expect((await server.api('/api/feedback', { token: await sign(now + 10) })).status).toBe(200);
  });

  it('accepts a token in one spelling only: its signature re-spelt to the same bytes gets 401', async () => {
    server = await startTestServer('embedded');
    const token = await tokenFor(server);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 32 signature bytes take 43 characters: the last one's two low bits are unused.
    const respelt = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1)!) ^ 1];
    expect(Buffer.from(respelt.split('.')[2]!, 'base64url')).toEqual(Buffer.from(token.split('.')[2]!, 'base64url'));
    expect((await server.api('/api/feedback', { token: respelt })).status).toBe(401);
    expect((await server.api('/api/feedback', { token })).status).toBe(200);
  });

  it('sends HSTS only when the request came over TLS', async () => {
    server = await startTestServer('embedded', { extra: { trustProxy: 1 } });
    expect((await server.api('/api/health')).headers.get('strict-transport-security')).toBeNull();
    const viaTls = await server.api('/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaTls.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
});
