import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/errors.ts';
import { FixedWindowLimiter } from '../http/rate-limit.ts';
import { ModelUnavailableError, UnknownModelError, type RetrievalEngine } from '../search/retrieval-engine.ts';

const searchBody = {
  type: 'object',
  required: ['query'],
  properties: {
    query: { type: 'string', maxLength: 1000 },
    top_k: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    models: { type: 'string', default: 'both' },
  },
} as const;

export interface SearchRouteOptions {
  /** Searches a minute per address; 0 turns the limit off. */
  rateLimit: number;
  now?: () => number;
}

export function searchRoutes(engine: RetrievalEngine, options: SearchRouteOptions) {
  const limiter = new FixedWindowLimiter(options.rateLimit);
  const now = options.now ?? Date.now;
  return async function register(app: FastifyInstance): Promise<void> {
    app.post<{ Body: { query: string; top_k: number; models: string } }>(
      '/search',
      {
        schema: { body: searchBody },
        onRequest: async (request) => {
          const verdict = limiter.hit(request.ip, now());
          if (!verdict.allowed) {
            throw new HttpError(429, `Too many searches. Try again in ${verdict.retryAfterSeconds} seconds.`, {
              'retry-after': String(verdict.retryAfterSeconds),
            });
          }
        },
      },
      async (request) => {
        const query = request.body.query.trim();
        if (!query) throw new HttpError(400, 'Query must not be empty');
        try {
          return await engine.search(query, request.body.top_k, request.body.models);
        } catch (error) {
          if (error instanceof UnknownModelError) throw new HttpError(400, error.message);
          if (error instanceof ModelUnavailableError) {
            request.log.error({ err: error.cause ?? error }, 'model unavailable');
            throw new HttpError(503, error.message);
          }
          throw error;
        }
      },
    );

    app.get<{ Params: { id: string }; Querystring: { radius: number } }>(
      '/passages/:id/context',
      {
        schema: {
          params: { type: 'object', properties: { id: { type: 'string', maxLength: 100 } } },
          querystring: { type: 'object', properties: { radius: { type: 'integer', minimum: 0, maximum: 10, default: 2 } } },
        },
      },
      async (request) => {
        const context = engine.context(request.params.id, request.query.radius);
        if (!context) throw new HttpError(404, `No passage with id ${request.params.id}`);
        return context;
      },
    );
  };
}
