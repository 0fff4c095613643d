import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AuthService } from './modules/auth/index.ts';
import { DEFAULT_DAILY_ROUND_BOUND } from './platform/config/config.ts';
import { createLogger } from './platform/log.ts';
import { isApiRequest } from './platform/http/api-paths.ts';
import { authentication } from './modules/auth/index.ts';
import { frameworkErrors, registerErrorHandling } from './platform/http/errors.ts';
import { requestMetrics, type Metrics } from './platform/http/metrics.ts';
import { FixedWindowLimiter, type SearchLimiter } from './platform/limits/rate-limit.ts';
import { requireHost } from './platform/http/host-header.ts';
import { setSecurityHeaders } from './platform/http/security-headers.ts';
import { registerApiDocs } from './platform/http/api-docs.ts';
import { services } from './services.ts';
import { registerStaticFiles } from './platform/http/static-files.ts';
import { BODY_LIMIT_BYTES } from './platform/http/body-limits.ts';
import { answerClientError, answerUnservedRequests } from './platform/http/client-errors.ts';
import { logEachRequestOnce } from './platform/http/request-log.ts';
import { readJsonAsUtf8 } from './platform/http/request-bodies.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { authRoutes } from './modules/auth/index.ts';
import { feedbackRoutes } from './modules/arena/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { offlinePackRoutes } from './modules/offline-pack/index.ts';
import { bookRoutes } from './modules/book/index.ts';
import { savedRoutes } from './modules/saved/index.ts';
import { shippedBookFile } from './platform/config/book-file.ts';
import { searchRoutes } from './modules/arena/index.ts';
import { statsRoutes } from './modules/arena/index.ts';
import type { RetrievalEngine } from './modules/search/index.ts';
import type { Db } from './platform/store/db.ts';

export interface AppDeps {
  db: Db;
  auth: AuthService;
  /** Search, reading in context and the lineup /api/health reports; without it search answers 503. */
  engine?: RetrievalEngine;
  /**
   * The names votes may carry for a model of this version: every model either lineup serves
   * (main), or else the engine's own. A vote naming one the engine cannot run is checked later.
   */
  servedModelTypes?: string[];
  /** Searches a minute per address when no `searchLimiter` is given; 0 (the default) turns the limit off. */
  searchRateLimit?: number;
  searchLimiter?: SearchLimiter;
  /** Votes a minute per reader; 0 (the default) turns the limit off. */
  voteRateLimit?: number;
  /** Decided rounds a reader a day that count in the comparison (ARENA_DAILY_ROUNDS; DEFAULT_DAILY_ROUND_BOUND by default). */
  dailyRoundBound?: number;
  now?: () => number;
  /** Counts for Prometheus (METRICS_PORT); nothing is counted without. */
  metrics?: Metrics;
  /** Close the store when the app closes. */
  closeStore?: boolean;
  staticDir: string;
  /** How many proxies stand in front (TRUST_PROXY): the reader's address is the one the furthest of them saw. */
  trustProxy?: number;
  /** How long a request may take to arrive whole (REQUEST_TIMEOUT_MS; tests shorten it). */
  requestTimeoutMs?: number;
  /** The process's logger; tests let the app make a silent one. */
  logger?: FastifyBaseLogger;
  logLevel?: string;
  /** Where the offline pack is built and kept (DATA_DIR/vectors); without it the server offers none. */
  offlinePackDir?: string;
  /** The book GET /api/book gives and whose paragraphs readers save (CORPUS_FILE; the shipped book by default), read once as the app is built. */
  bookFile?: string;
}

/**
 * A request must arrive whole within 2 minutes: its headers within Node's 60 s, its body in what
 * is left. Without it a client sending a body a byte at a time, or never finishing it, held its
 * connection for good (Fastify turns Node's limit off by default). Two minutes let a 4 MiB batch
 * of votes through at 35 kB/s, a slow mobile connection. The client gets a 408.
 */
export const REQUEST_TIMEOUT_MS = 120_000;

/** Longer than any route parameter we take, so that the route's own schema names the field. */
const MAX_PARAM_LENGTH = 500;

/** Counts kept in this process only (tests, and a single instance). */
function memoryLimiter(limit: number): SearchLimiter {
  const limiter = new FixedWindowLimiter(limit);
  return { hit: (key, now) => limiter.hit(key, now) };
}

/**
 * The peer and the next `hops - 1` addresses of X-Forwarded-For (from its end) are proxies; the
 * address before them is the reader's. `false` with no proxy: the peer is the reader.
 */
function trustHops(hops: number): false | ((address: string, hop: number) => boolean) {
  return hops > 0 ? (_address, hop) => hop < hops : false;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const requestTimeout = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout,
    // Given to Node's server as it is made too: set on it afterwards (as Fastify does), Node 20
    // never enforces it. Node looks for requests past their time every 30 s, or more often for
    // a shorter limit.
    // Node's own Host check answers a bare 400 before any hook: host-header.ts refuses instead.
    http: { requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.ceil(requestTimeout / 4)), requireHostHeader: false },
    // Trusted by hops, never `true`: Fastify would then take X-Forwarded-For's first address,
    // which a client writes itself where a proxy adds to the header rather than replacing it.
    trustProxy: trustHops(deps.trustProxy ?? 0),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    loggerInstance: deps.logger ?? createLogger(deps.logLevel),
    // One line per request (logEachRequestOnce), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler: answerClientError,
    // Requests arriving on an open connection while the app closes are served, with
    // `Connection: close` (services.ts, lifecycle), rather than refused with Fastify's 503.
    return503OnClosing: false,
    // A `__proto__` or `constructor` key is an unknown field like any other: dropped, not a 400.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
  });
  answerUnservedRequests(app.server, app.log);
  logEachRequestOnce(app);
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  // Bodies are JSON unless a route says otherwise (the sign-in form registers its own parser).
  app.removeContentTypeParser('text/plain');
  readJsonAsUtf8(app);
  // Every request passes this one hook: a callback hook, not an async one, costs no promise. The
  // headers set here are there before the route runs, whatever it answers; a route may replace them.
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request, reply);
    reply.header('x-request-id', request.id);
    // The API's replies are never cached, but for a route that says otherwise (the offline pack's file).
    if (isApiRequest(request)) reply.header('cache-control', 'no-store');
    requireHost(request, reply, done);
  });

  const now = deps.now ?? Date.now;
  await app.register(services, {
    db: deps.db,
    auth: deps.auth,
    engine: deps.engine ?? null,
    servedModelTypes: deps.servedModelTypes ?? deps.engine?.modelTypes() ?? [],
    settings: { searchLimiter: deps.searchLimiter ?? memoryLimiter(deps.searchRateLimit ?? 0), voteRateLimit: deps.voteRateLimit ?? 0, dailyRoundBound: deps.dailyRoundBound ?? DEFAULT_DAILY_ROUND_BOUND, now },
    closeStore: deps.closeStore ?? false,
  });
  await app.register(requestMetrics, { metrics: deps.metrics ?? null });
  if (deps.metrics && deps.engine) {
    const { searchSeconds } = deps.metrics;
    deps.engine.onModelSearch = (model, seconds) => searchSeconds.observe({ model }, seconds);
  }
  await registerApiDocs(app);
  await app.register(authentication);
  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(feedbackRoutes);
      await api.register(healthRoutes);
      await api.register(statsRoutes);
      await api.register(searchRoutes);
      await api.register(offlinePackRoutes, { dir: deps.offlinePackDir ?? null });
      await api.register(bookRoutes, { file: deps.bookFile ?? shippedBookFile() });
      await api.register(savedRoutes, { bookFile: deps.bookFile ?? shippedBookFile() });
    },
    { prefix: '/api' },
  );
  // The sign-in form is sent here only from a page without JavaScript (the app sends it to
  // /api/login): back to the page, which says that signing in needs it. The body is never read.
  await app.register(async (noScript) => {
    noScript.removeAllContentTypeParsers();
    noScript.addContentTypeParser('*', (_request, payload, done) => {
      // Drained unread, and no more of it than any body may hold: past that the connection goes.
      let received = 0;
      payload.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > BODY_LIMIT_BYTES) payload.destroy();
      });
      payload.resume();
      done(null);
    });
    noScript.post('/login', async (_request, reply) => reply.redirect('/login', 303));
  });
  await registerStaticFiles(app, deps.staticDir);
  return app;
}
