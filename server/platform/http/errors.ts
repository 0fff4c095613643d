import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from '../store/db.ts';
import { driverWords } from '../log.ts';
import { setSecurityHeaders } from './security-headers.ts';
import { describeValidationError } from './validation.ts';

/** An error whose message a client may read, with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Declared per route (`config.contentType`); JSON when a route says nothing. */
declare module 'fastify' {
  interface FastifyContextConfig {
    contentType?: string;
  }
}

const KNOWN_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body must be a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_BAD_URL: 'The address is not valid',
  FST_ERR_MAX_PARAM_LENGTH: 'The address is too long',
};

/** Seconds a client should wait before trying again while the database is away. */
const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Every error leaves as `{"detail": "..."}`. A 5xx says only "Internal server error" and its
 * cause goes to the log with the request id.
 */
export function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof HttpError) {
    return reply.status(error.statusCode).headers(error.headers).send({ detail: error.message });
  }
  if (error instanceof StoreUnavailableError) {
    // One line each, the driver's own words: an outage answers many requests this way, and a
    // stack trace apiece told an operator nothing more.
    request.log.warn({ cause: driverWords(error) }, 'database unavailable');
    return reply
      .status(503)
      .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
      .send({ detail: 'The database is unavailable. Please try again shortly.' });
  }
  if (error.validation && error.validation.length > 0) {
    const detail = describeValidationError(error.validation[0]!, error.validationContext ?? 'body');
    return reply.status(400).send({ detail });
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const expected = request.routeOptions.config?.contentType ?? 'application/json';
    return reply.status(415).send({ detail: `Content-Type must be ${expected}` });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const detail = (error.code && KNOWN_CLIENT_ERRORS[error.code]) || error.message || 'Bad request';
    // A range past a file's end (416) says the file's length, as HTTP asks (`bytes */1234`).
    const contentRange = (error as { headers?: Record<string, unknown> }).headers?.['Content-Range'];
    if (status === 416 && typeof contentRange === 'string') reply.header('content-range', contentRange);
    return reply.status(status).send({ detail: detail.replace(/^Body/, 'Request body') });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send({ detail: 'Internal server error' });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
}

/**
 * The router's own errors (a malformed URL, a parameter past the router's length limit) bypass
 * every hook: give them the same headers and the same `{"detail"}` body as any other error.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  setSecurityHeaders(request, reply);
  reply.header('x-request-id', request.id);
  reply.header('cache-control', 'no-store');
  void sendError(error, request, reply);
}
