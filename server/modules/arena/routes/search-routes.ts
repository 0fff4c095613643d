import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ContextQuery, PassageContext, PassageParams, SearchReply, SearchRequest } from '../../../../contract/api-schemas.ts';
import { DecidedRounds } from '../decided-rounds.ts';
import { leastDecidedPair, pairCounts } from '../draw.ts';
import { HttpError } from '../../../platform/http/errors.ts';
import { driverWords } from '../../../platform/log.ts';
import { LruCache } from '../../../platform/caches/lru-cache.ts';
import { ModelUnavailableError, UnknownModelError, type RetrievalEngine } from '../../search/index.ts';

const SERIALISED_ANSWERS = 256;

/** POST /search and GET /passages/:id/context: open to anyone, searches limited per address. */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The bytes of the most asked answers (by the models that gave them, top_k and query),
  // serialised by the reply schema once. A few hundred: the engine keeps thousands of answers,
  // and their bytes would cost tens of megabytes.
  const serialised = new LruCache<string, string>(SERIALISED_ANSWERS);
  const decided = new DecidedRounds(app.db, {
    now: () => app.settings.now(),
    dailyRoundBound: app.settings.dailyRoundBound,
    onError: (error) => app.log.warn({ cause: driverWords(error) }, 'the decided rounds could not be counted; the arena draws from the last count'),
  });

  const engineOf = (): RetrievalEngine => {
    if (!app.engine) throw new HttpError(503, 'Search is not available on this server');
    return app.engine;
  };

  /** A `both` search's two arms: the pair of the pool with the fewest decided rounds, ties broken at random. */
  const drawPair = async (engine: RetrievalEngine): Promise<string[]> => {
    const pool = engine.pool();
    if (pool.length < 2) throw new HttpError(503, 'Fewer than two models can be served right now');
    const idOf = new Map(pool.map((arm) => [arm.modelType, arm.id]));
    const pair = leastDecidedPair(pairCounts([...idOf.keys()], await decided.current()), Math.random);
    return pair.map((modelType) => idOf.get(modelType)!);
  };

  app.post(
    '/search',
    {
      schema: { body: SearchRequest, response: { 200: SearchReply } },
      // The query is trimmed before it is checked: its length limit is on what is searched.
      preValidation: async (request) => {
        const body = request.body as { query?: unknown } | null;
        if (body && typeof body === 'object' && typeof body.query === 'string') body.query = body.query.trim();
      },
      onRequest: async (request) => {
        const verdict = await app.settings.searchLimiter.hit(request.ip, app.settings.now());
        if (!verdict.allowed) {
          throw new HttpError(429, `Too many searches. Try again in ${verdict.retryAfterSeconds} seconds.`, {
            'retry-after': String(verdict.retryAfterSeconds),
          });
        }
      },
    },
    async (request, reply) => {
      const query = request.body.query; // trimmed before validation
      if (!query) throw new HttpError(400, 'Query must not be empty');
      const engine = engineOf();
      const models = request.body.models === 'both' ? await drawPair(engine) : [request.body.models];
      try {
        const key = `${models.join(' ')}\n${request.body.top_k}\n${query}`;
        let body = serialised.get(key);
        if (body === undefined) {
          body = String(reply.serialize(await engine.search(query, request.body.top_k, models)));
          serialised.set(key, body);
        }
        // A string is sent as it is: the schema's serialiser already made it.
        return reply.type('application/json; charset=utf-8').send(body as unknown as SearchReply);
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

  app.get(
    '/passages/:id/context',
    { schema: { params: PassageParams, querystring: ContextQuery, response: { 200: PassageContext } } },
    async (request) => {
      const context = engineOf().context(request.params.id, request.query.before ?? request.query.radius, request.query.after ?? request.query.radius);
      if (!context) throw new HttpError(404, `No passage with id ${request.params.id}`);
      return context;
    },
  );
};
