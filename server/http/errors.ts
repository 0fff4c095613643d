import type { FastifyError, FastifyInstance } from 'fastify';
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

const KNOWN_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body must be a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
};

/**
 * Every error leaves as `{"detail": "..."}`. A 5xx says only "Internal server error" and its
 * cause goes to the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).headers(error.headers).send({ detail: error.message });
    }
    if (error.validation && error.validation.length > 0) {
      const detail = describeValidationError(error.validation[0]!, error.validationContext ?? 'body');
      return reply.status(400).send({ detail });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail = (error.code && KNOWN_CLIENT_ERRORS[error.code]) || error.message || 'Bad request';
      return reply.status(status).send({ detail: detail.replace(/^Body/, 'Request body') });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ detail: 'Internal server error' });
  });
}
