import type { FastifyInstance } from 'fastify';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * The headers Node's fetch adds to every request (when the caller did not set them), so that the
 * server sees an injected request as it saw the same one over HTTP.
 */
const FETCH_HEADERS: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Fetch's own limit. */
const MAX_REDIRECTS = 20;

/** What fetch undoes of a body's Content-Encoding (it keeps the header). */
const DECODERS: Record<string, (body: Buffer) => Buffer> = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

/**
 * A fetch that hands each request to `app.inject` instead of sending it over a socket: no
 * connection, no HTTP parsing, no port. For the tests that only want the app's answer, not HTTP
 * itself. It does what fetch does that a test could notice: the request as fetch would send it
 * (its added headers, a body's content type, the URL normalised, Host the server's `origin`),
 * redirects followed unless `redirect: 'manual'`, and the body decoded by its Content-Encoding.
 */
export function injectFetch(app: FastifyInstance, origin: string): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    let request = new Request(new URL(url, origin), init);
    for (let redirects = 0; ; redirects++) {
      const target = new URL(request.url);
      if (target.origin !== new URL(origin).origin) throw new Error(`injectFetch reaches ${origin} only, not ${target.origin}`);
      // Node's fetch asks for a HEAD's connection to be closed after it.
      const connection = request.method === 'HEAD' ? 'close' : 'keep-alive';
      const headers: Record<string, string> = { ...FETCH_HEADERS, connection, host: target.host };
      request.headers.forEach((value, name) => (headers[name] = value));
      const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
      const answer = await app.inject({
        method: request.method as 'GET',
        url: target.pathname + target.search,
        headers,
        ...(body ? { payload: body } : {}),
      });
      const location = answer.headers.location;
      if (REDIRECTS.has(answer.statusCode) && typeof location === 'string' && request.redirect !== 'manual') {
        if (request.redirect === 'error') throw new TypeError('fetch failed: redirect mode is error');
        if (redirects >= MAX_REDIRECTS) throw new TypeError('fetch failed: redirect count exceeded');
        // As fetch: a 301 or 302 after a POST, or a 303 after anything but GET or HEAD, is followed by a GET without a body.
        const status = answer.statusCode;
        const toGet = ((status === 301 || status === 302) && request.method === 'POST') || (status === 303 && request.method !== 'GET' && request.method !== 'HEAD');
        const next = new URL(location, target);
        request = toGet
          ? new Request(next, { method: 'GET', headers: withoutBodyHeaders(request.headers), redirect: request.redirect })
          : new Request(next, { method: request.method, headers: request.headers, redirect: request.redirect, ...(body ? { body } : {}) });
        continue;
      }
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
      }
      const noBody = request.method === 'HEAD' || [101, 204, 205, 304].includes(answer.statusCode);
      const encoding = responseHeaders.get('content-encoding')?.trim().toLowerCase();
      const decode = encoding ? DECODERS[encoding] : undefined;
      const raw = answer.rawPayload;
      const bytes = decode && raw.length > 0 ? decode(raw) : raw;
      const response = new Response(noBody ? null : Uint8Array.from(bytes), {
        status: answer.statusCode,
        statusText: answer.statusMessage,
        headers: responseHeaders,
      });
      // Where fetch's response says it came from; a Response made here has neither.
      Object.defineProperties(response, { url: { value: request.url }, redirected: { value: redirects > 0 } });
      return response;
    }
  };
}

function withoutBodyHeaders(headers: Headers): Headers {
  const kept = new Headers(headers);
  for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) kept.delete(name);
  return kept;
}
