import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ContextQuery, PassageContext, PassageParams, SearchReply, SearchRequest, SearchResult } from '../../../../contract/api-schemas.ts';
import { interleave } from '../../../../common/search/interleave.ts';
import { DecidedRounds } from '../decided-rounds.ts';
import { leastDecidedPairs, pairCounts, pickOne } from '../draw.ts';
import { HttpError } from '../../../platform/http/errors.ts';
import type { LimitVerdict } from '../../../platform/limits/window-verdict.ts';
import { driverWords } from '../../../platform/log.ts';
import { LruCache } from '../../../platform/caches/lru-cache.ts';
import { ModelUnavailableError, UnknownModelError, type RetrievalEngine } from '../../search/index.ts';
import { bearerToken } from '../../auth/index.ts';
import { drawnReceipt } from '../search-receipt.ts';

/** Two per `both` search: as many bytes as the 256 two-model answers kept before (docs/benchmarks.md). */
const SERIALISED_ANSWERS = 512;

/** A search over the limit's 429, or nothing. */
function refusal(verdict: LimitVerdict): HttpError | undefined {
  if (verdict.allowed) return undefined;
  return new HttpError(429, `Too many searches. Try again in ${verdict.retryAfterSeconds} seconds.`, { 'retry-after': String(verdict.retryAfterSeconds) });
}

/**
 * A reply's text as bytes of their own: not a slice of Node's shared pool (a kept small reply
 * would hold its whole 8 KB slab), and on the global ArrayBuffer, by which Fastify tells bytes
 * from an object to serialise (a test realm such as jsdom's replaces that global).
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.from(new ArrayBuffer(Buffer.byteLength(text)));
  bytes.write(text);
  return bytes;
}

/** One model's answer to a question, its results serialised, and the replies made of it. */
interface CachedAnswer {
  items: string[];
  /** The first result's passage (null: none), which a reader's receipt names. */
  first: string | null;
  /**
   * The reply's bytes beside each partner model (by id; '' for this model alone), for a reader
   * without a receipt: encoded once, so a request neither measures nor encodes the text again.
   */
  replies: Map<string, Buffer>;
}

/** POST /search and GET /passages/:id/context: open to anyone, searches limited per address. */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A search's one cache: each model's answer to the most asked questions (by model, top_k and
  // query), its results serialised by the schema once. A pair drawn anew reuses each model's
  // bytes. A few hundred: a thousand answers' bytes would cost tens of megabytes.
  const serialised = new LruCache<string, CachedAnswer>(SERIALISED_ANSWERS);
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
  let lastDraw: { counts: ReadonlyMap<string, number>; engine: RetrievalEngine; tied: (readonly [string, string])[] } | null = null;
  const drawPair = async (engine: RetrievalEngine): Promise<readonly [string, string]> => {
    const pool = engine.pool();
    if (pool.length < 2) throw new HttpError(503, 'Fewer than two models can be served right now');
    const counts = await decided.current();
    // The tied pairs change only with the counts (read again at most every few seconds) or the
    // engine (its pool is fixed): a search between those draws among them, and does not count
    // every pair again.
    if (lastDraw?.counts !== counts || lastDraw.engine !== engine) {
      const idOf = new Map(pool.map((arm) => [arm.modelType, arm.id]));
      const tied = leastDecidedPairs(pairCounts([...idOf.keys()], counts)).map(([a, b]) => [idOf.get(a)!, idOf.get(b)!] as const);
      lastDraw = { counts, engine, tied };
    }
    return pickOne(lastDraw.tied, Math.random);
  };

  app.post(
    '/search',
    {
      schema: { body: SearchRequest, response: { 200: SearchReply } },
      // The query is trimmed before it is checked: its length limit is on what is searched.
      preValidation: (request, _reply, done) => {
        const body = request.body as { query?: unknown } | null;
        if (body && typeof body === 'object' && typeof body.query === 'string') body.query = body.query.trim();
        done();
      },
      // A callback hook: a verdict counted in this process is had without a promise.
      onRequest: (request, _reply, done) => {
        const verdict = app.settings.searchLimiter.hit(request.ip, app.settings.now());
        if (verdict instanceof Promise) verdict.then((v) => done(refusal(v)), done);
        else done(refusal(verdict));
      },
    },
    async (request, reply) => {
      const query = request.body.query; // trimmed before validation
      if (!query) throw new HttpError(400, 'Query must not be empty');
      const engine = engineOf();
      const models = request.body.models === 'both' ? await drawPair(engine) : [request.body.models];
      try {
        const topK = request.body.top_k;
        const keys = models.map((model) => `${model}\n${topK}\n${query}`);
        let answers = keys.map((key) => serialised.get(key));
        // The models not in the cache answer now, side by side (a warm search awaits nothing here).
        if (answers.includes(undefined)) {
          // Compiled once (Fastify keeps it by the schema object); a TypeBox schema is a plain JSON schema.
          const serialise = reply.compileSerializationSchema(SearchResult as unknown as Record<string, unknown>);
          answers = await Promise.all(
            answers.map(async (answer, i) => {
              if (answer !== undefined) return answer;
              const results = await engine.search(query, topK, models[i]!);
              const computed: CachedAnswer = { items: results.map((result) => serialise(result)), first: results[0]?.id ?? null, replies: new Map() };
              serialised.set(keys[i]!, computed);
              return computed;
            }),
          );
        }
        const cached = answers as CachedAnswer[];
        // A reader's drawn search carries its receipt on every result (a vote proves by it what
        // was shown): the cached items are the same for all, the receipt is added to each.
        const token = request.body.models === 'both' ? bearerToken(request) : undefined;
        const reader = token ? (await app.auth.authenticate(token))?.username : undefined;
        let body: string | Buffer;
        if (reader) {
          const firsts = cached.map(({ first }) => first);
          const field = `,"receipt":${JSON.stringify(await drawnReceipt(app.db, reader, query, engine, models, firsts, app.settings.now()))}}`;
          body = `[${interleave(cached.map(({ items }) => items)).map((item) => item.slice(0, -1) + field).join(',')}]`;
        } else {
          // Anyone else's reply is the same bytes each time: made once beside each partner, kept
          // with the first model's answer (one model alone: beside no partner).
          const partner = models[1] ?? '';
          let kept = cached[0]!.replies.get(partner);
          if (!kept) {
            kept = ownBytes(`[${interleave(cached.map(({ items }) => items)).join(',')}]`);
            cached[0]!.replies.set(partner, kept);
          }
          body = kept;
        }
        // Text or bytes are sent as they are: the schema's serialiser already made the items.
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
