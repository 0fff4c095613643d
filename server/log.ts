import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';

/** Structured logs that never hold credentials, tokens or request bodies. */
export function createLogger(level = 'info'): FastifyBaseLogger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body', 'body', 'password', 'refresh_token', 'access_token'],
      censor: '[redacted]',
    },
  });
}
