import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { HttpError } from './errors.ts';

/**
 * An HTTP/1.1 request must name its Host (RFC 9112 3.2). Node refuses one that does not itself,
 * before any hook, with a bare 400: no `{"detail"}`, no security headers, no request id, no log
 * line. The server is made with Node's check off (app.ts, `requireHostHeader: false`) and this
 * onRequest hook, after the security headers', refuses the request as every other error is.
 * HTTP/1.0 had no Host, and keeps being served without one.
 */
export function requireHost(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.raw.httpVersion === '1.1' && (request.headers.host === undefined || request.headers.host === '')) {
    done(new HttpError(400, 'The request must name its Host (an HTTP/1.1 request without a Host header is not valid)'));
    return;
  }
  done();
}
