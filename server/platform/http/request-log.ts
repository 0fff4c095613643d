import type { FastifyInstance } from 'fastify';

/**
 * One log line per request, once it is answered: its id, method, path (never the query string),
 * address, status and time. Fastify's own logging writes two (received, then completed), the first
 * saying nothing the second does not; app.ts turns those off.
 */
export function logEachRequestOnce(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
  });
}
