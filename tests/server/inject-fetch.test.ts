// Starts no server, store or engine: it does not wait for the run's fixtures.
import Fastify, { type FastifyInstance } from 'fastify';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectFetch } from './inject-fetch.ts';

/**
 * What a test can see of a response: status, headers but those of the connection and the clock,
 * body (a JSON one read, so that the order of the headers echoed in it does not count).
 */
async function seen(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  const text = await response.text();
  const body: unknown = headers['content-type']?.startsWith('application/json') && text ? JSON.parse(text) : text;
  return { status: response.status, statusText: response.statusText, url: response.url, redirected: response.redirected, headers, body };
}

describe('a fetch through app.inject', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    app = Fastify();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    // What arrived, as the server saw it.
    app.all('/echo', async (request) => ({ method: request.method, url: request.url, headers: request.headers, body: request.body ?? null }));
    app.all('/redirect/:status', async (request, reply) => reply.redirect('/echo?from=redirect', Number((request.params as { status: string }).status)));
    const text = 'a body sent compressed, '.repeat(20);
    app.get('/gzip', async (_request, reply) => reply.header('content-encoding', 'gzip').type('text/plain').send(gzipSync(text)));
    app.get('/br', async (_request, reply) => reply.header('content-encoding', 'br').type('text/plain').send(brotliCompressSync(text)));
    app.get('/nothing', async (_request, reply) => reply.code(204).send());
    app.get('/cookies', async (_request, reply) => reply.header('set-cookie', ['a=1', 'b=2']).send('two cookies'));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => app.close());

  const cases: Array<[string, string, RequestInit?]> = [
    ['a plain GET, with the headers fetch adds', '/echo'],
    ['a URL fetch normalises', '/a/../echo?q=%61+b'],
    ['a form body, typed as fetch types it', '/echo', { method: 'POST', body: new URLSearchParams({ username: 'demo', password: 'a b&c' }) }],
    ['a JSON body with headers of its own', '/echo', { method: 'PUT', body: '{"items":[]}', headers: { 'content-type': 'application/json', 'accept-encoding': 'identity', 'x-forwarded-for': '10.0.0.1' } }],
    ['a HEAD', '/echo', { method: 'HEAD' }],
    ['a 303 after a POST, followed by a GET', '/redirect/303', { method: 'POST', body: 'x=1', headers: { 'content-type': 'text/plain' } }],
    ['a 307 after a POST, followed by the same POST', '/redirect/307', { method: 'POST', body: 'x=1', headers: { 'content-type': 'text/plain' } }],
    ['a 302 not followed when asked not to', '/redirect/302', { redirect: 'manual' }],
    ['a gzipped body, decoded', '/gzip'],
    ['a brotli body, decoded', '/br'],
    ['a body asked for as brotli', '/br', { headers: { 'accept-encoding': 'br' } }],
    ['no content', '/nothing'],
    ['a header given twice', '/cookies'],
  ];

  it.each(cases)('gives what fetch gives over HTTP: %s', async (_name, pathname, init) => {
    const injected = await seen(await injectFetch(app, url)(url + pathname, init));
    const fetched = await seen(await fetch(url + pathname, init));
    expect(injected).toEqual(fetched);
  });

  it('goes nowhere but its own server', async () => {
    await expect(injectFetch(app, url)('http://example.org/echo')).rejects.toThrow(`injectFetch reaches ${url} only`);
  });
});
