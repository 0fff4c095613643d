import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EARLY_INPUT_SCRIPT } from '../../../contract/early-input-script.ts';

/** The Content-Security-Policy source that lets exactly the inline early-input script run. */
export function earlyInputScriptHash(): string {
  return `'sha256-${createHash('sha256').update(EARLY_INPUT_SCRIPT).digest('base64')}'`;
}

/** The Content-Security-Policy the PWA runs under (Fluent UI injects its styles at run time). */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  // The one inline script, by its hash: it keeps taps made before the app has loaded. WebAssembly
  // may be compiled (never JavaScript from text): the offline search's worker scores passages with
  // the server's own SIMD kernel (common/search/dot-kernel.ts).
  scriptSrc: ["'self'", earlyInputScriptHash(), "'wasm-unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // The server may be reached over plain HTTP on a LAN; don't force https for sub-resources.
  upgradeInsecureRequests: null,
};

/**
 * The headers helmet sets, worked out once: they are the same for every reply, and helmet would
 * otherwise build the policy text again for each request.
 */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  const setHelmetHeaders = helmet({
    contentSecurityPolicy: { directives: CONTENT_SECURITY_POLICY },
    crossOriginEmbedderPolicy: false,
    // Sent below, and only over TLS: over plain HTTP a browser ignores it (RFC 6797 8.1).
    strictTransportSecurity: false,
  });
  // helmet takes Node's request and response; it reads nothing from the request and only sets or removes headers.
  setHelmetHeaders({} as IncomingMessage, capture as unknown as ServerResponse, () => undefined);
  return headers;
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = helmetHeaders();

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Every reply's security headers. Called by a hook for routed requests and by the router's own
 * error path (a malformed URL never reaches the hooks), so that every reply carries the same.
 * `request.protocol` is https when the connection is TLS, or, with TRUST_PROXY, when the proxy says so.
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
}
