import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Nginx, nginxInstalled } from '../../scripts/cluster-nginx.ts';
import { SECURITY_HEADERS } from '../../server/platform/http/security-headers.ts';
import { freePort } from '../../scripts/server-process.ts';
import { startTestServer, writeFakeBuild, type TestServer } from './harness.ts';
import { parseRawReply, rawExchange, type RawReply } from './raw-http.ts';

/** A request written as its lines, without the blank line that ends it. */
const rawRequest = async (port: number, head: string): Promise<RawReply> => parseRawReply(await rawExchange(port, `${head.replace(/\n/g, '\r\n')}\r\n\r\n`));

// Where Debian's nginx is installed (CI installs it).
describe.runIf(nginxInstalled())('the cluster’s nginx, where it answers itself', () => {
  let server: TestServer;
  let nginx: Nginx;
  let port: number;
  let serverClosed = false;

  beforeAll(async () => {
    server = await startTestServer('embedded', { staticDir: await writeFakeBuild() });
    port = await freePort();
    const output: string[] = [];
    nginx = new Nginx({
      prefix: await mkdtemp(path.join(tmpdir(), 'nginx-errors-')),
      port,
      upstreamPorts: [Number(new URL(server.url).port)],
      output: (_, line) => output.push(line),
    });
    await nginx.start();
  });
  afterAll(async () => {
    await nginx?.stop();
    if (!serverClosed) await server?.close();
  });

  /** What the API promises of every error, from any layer: {"detail": …} as JSON, with the security headers. */
  function expectTheApisError(reply: RawReply, status: number, label: string): void {
    expect(reply.status, label).toBe(status);
    expect(reply.headers['content-type'], label).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body), label).toEqual({ detail: expect.stringMatching(/\w/) });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(reply.headers[name], `${label}: ${name}`).toBe(value);
    expect(reply.headers['cache-control'], label).toBe('no-store');
  }

  it('passes on a request with headers as large as the server takes', async () => {
    const reply = await rawRequest(port, `GET /api/health HTTP/1.1\nHost: x\nConnection: close\nX-Large: ${'a'.repeat(12_000)}`);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ status: 'ok' });
  });

  it('refuses in the API’s form what it refuses itself: a method it never passes on, too large a body, URI or headers, a malformed request', async () => {
    const host = 'Host: x\nConnection: close';
    const cases: Array<[string, number, string]> = [
      ['TRACE', 405, `TRACE /api/health HTTP/1.1\n${host}`],
      ['too large a body', 413, `POST /api/save HTTP/1.1\n${host}\nContent-Type: application/json\nContent-Length: 6000000`],
      ['too long a URI', 414, `GET /api/${'a'.repeat(20_000)} HTTP/1.1\n${host}`],
      ['too large headers', 400, `GET /api/health HTTP/1.1\n${host}\nX-Large: ${'a'.repeat(20_000)}`],
      ['a malformed request', 400, `GET /api/health HTTP/1.1\nHost: x\nHost: y\nConnection: close`],
      ['an unknown transfer coding', 501, `POST /api/save HTTP/1.1\n${host}\nTransfer-Encoding: gzip, chunked`],
      ['an HTTP version it does not speak', 505, `GET /api/health HTTP/2.7\n${host}`],
    ];
    for (const [label, status, head] of cases) expectTheApisError(await rawRequest(port, head), status, label);
  });

  it('leaves the server’s own errors as the server wrote them', async () => {
    const reply = await rawRequest(port, 'GET /api/nope HTTP/1.1\nHost: x\nConnection: close');
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({ detail: 'Not found' });
    expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says in the API’s form that no instance answers', async () => {
    await server.close();
    serverClosed = true;
    expectTheApisError(await rawRequest(port, 'GET /api/health HTTP/1.1\nHost: x\nConnection: close'), 502, 'no instance');
  });
});
