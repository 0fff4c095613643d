import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Whether the logger writes info lines (pino says; another logger is taken to). */
const writesInfo = (log: FastifyBaseLogger): boolean => (log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true;

/**
 * One log line per request, once it is answered: its id, method, path (never the query string),
 * address, status and time. Fastify's own logging writes two (received, then completed), the first
 * saying nothing the second does not; app.ts turns those off.
 */
export function logEachRequestOnce(app: FastifyInstance): void {
  // A callback hook (no promise per request), and nothing built for a line the level leaves out.
  app.addHook('onResponse', (request, reply, done) => {
    if (writesInfo(request.log)) {
      request.log.info({ req: request, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
    }
    done();
  });
}
