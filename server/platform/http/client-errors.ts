import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { SECURITY_HEADERS } from './security-headers.ts';

/** What the reader of a reply is told for each error Node's HTTP parser meets before any route. */
const DETAIL: Record<number, string> = {
  400: 'The request is not valid HTTP',
  405: 'This server does not tunnel connections',
  408: 'The request took too long to arrive',
  417: 'Only the expectation 100-continue is supported',
  431: 'The request headers are too large',
};

/** Node's parser error → status, as Fastify's own handler maps them. */
function statusOf(error: NodeJS.ErrnoException): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * Fastify's `clientErrorHandler`: a request the HTTP parser refuses (headers past 16 KB, a control
 * character in a header, a bad Content-Length) never becomes a request, so no hook runs. Its
 * reply is written here, as every other error's is: `{"detail"}`, the security headers, an id.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reply already under way on this connection (a bad request pipelined behind a good one)
  // must not have another one written into it; nor can a closed connection take one.
  const underWay = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable || underWay) {
    socket.destroy();
    return;
  }
  writeRawError(socket, statusOf(error), this.log, error.code ?? error.message);
}

/**
 * A reply written straight to the connection, which then closes: `{"detail"}`, the security
 * headers, an id; and one log line, as every request that reaches the app has (request-log.ts):
 * these are much of what an attacker sends.
 */
function writeRawError(socket: Socket, status: number, log: FastifyBaseLogger, reason: string, request?: IncomingMessage): void {
  const id = randomUUID();
  // Told as every request is (log.ts's serializer: its path, never its query string).
  const req = { method: request?.method, url: request?.url, ip: socket.remoteAddress };
  log.info({ reqId: id, req, statusCode: status, reason }, 'request refused before routing');
  const body = JSON.stringify({ detail: DETAIL[status] });
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-request-id': id,
    ...SECURITY_HEADERS,
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  // Closed once written: the server allows half-open connections, and one left open by the
  // client would hold a file descriptor, and hold up a graceful shutdown, for good.
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * Requests Node answers itself, before Fastify sees them, unless the server listens for them: an
 * `Expect` other than 100-continue (Node wrote a bare 417) and CONNECT (Node closed the
 * connection without a word). Both get `{"detail"}` with the security headers, as every error does.
 */
export function answerUnservedRequests(server: Server, log: FastifyBaseLogger): void {
  server.on('checkExpectation', (request: IncomingMessage) => {
    request.resume();
    writeRawError(request.socket, 417, log, 'expect', request);
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => writeRawError(socket, 405, log, 'connect', request));
}
