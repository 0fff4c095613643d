import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sideServerLogging } from '../log.ts';
import { checkDatabase, DATABASE_CHECK_MS } from '../store/database-check.ts';
import type { Db } from '../store/db.ts';

type PoolStats = ReturnType<NonNullable<Db['poolStats']>>;

/** What an operator watches: requests, search per model, votes, sign-ins, the database pool. */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly searchSeconds = new Histogram({
    name: 'search_model_duration_seconds',
    help: 'Time one model takes to embed a question and rank the passages (answers from the cache are not counted)',
    labelNames: ['model'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [this.registry],
  });
  readonly votesSaved = new Counter({ name: 'votes_saved_total', help: 'Votes stored', registers: [this.registry] });
  readonly votesDuplicate = new Counter({
    name: 'votes_duplicate_total',
    help: 'Votes sent again (same client_id) and not stored twice',
    registers: [this.registry],
  });
  readonly loginFailures = new Counter({ name: 'login_failures_total', help: 'Sign-ins refused: wrong name or password', registers: [this.registry] });
  readonly loginThrottled = new Counter({ name: 'login_throttled_total', help: 'Sign-ins turned away by the throttle', registers: [this.registry] });

  constructor(db: Db) {
    collectDefaultMetrics({ register: this.registry });
    const stats = db.poolStats?.bind(db);
    if (stats) {
      const pool = (name: string, help: string, read: (s: PoolStats) => number) =>
        new Gauge({ name, help, registers: [this.registry], collect() { this.set(read(stats())); } });
      pool('db_pool_connections', 'Connections the pool holds', (s) => s.total);
      pool('db_pool_idle_connections', 'Connections idle in the pool', (s) => s.idle);
      pool('db_pool_waiting_requests', 'Queries waiting for a connection', (s) => s.waiting);
    }
    // Asked at each scrape: while the database is away the pool's gauges read as an idle pool's.
    // Registered after them, so that they are read before its own query waits for a connection.
    new Gauge({
      name: 'db_up',
      help: `1 if the database answered a query within ${DATABASE_CHECK_MS / 1000} s at this scrape, else 0`,
      registers: [this.registry],
      async collect() {
        const answered = await checkDatabase(db).then(
          () => true,
          () => false,
        );
        this.set(answered ? 1 : 0);
      },
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Null unless METRICS_PORT is set: nothing is counted then. */
    metrics: Metrics | null;
  }
}

/** Counts every answered request by its route (the pattern, never the path with its values). */
export const requestMetrics = fp<{ metrics: Metrics | null }>(
  async (app, { metrics }) => {
    app.decorate('metrics', metrics);
    if (!metrics) return;
    app.addHook('onResponse', async (request, reply) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
      metrics.requests.inc(labels);
      metrics.requestSeconds.observe(labels, reply.elapsedTime / 1000);
    });
  },
  { name: 'request-metrics', fastify: '5.x' },
);

/** GET /metrics for Prometheus, on a port of its own, so that it is never public by accident. */
export async function listenForMetrics(metrics: Metrics, host: string, port: number, log: FastifyBaseLogger): Promise<FastifyInstance> {
  const server = Fastify(sideServerLogging(log));
  server.get('/metrics', async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  // Anything else gets the API's form of an answer, not Fastify's default one.
  server.setNotFoundHandler(async (_request, reply) => reply.status(404).send({ detail: 'Not found' }));
  await server.listen({ host, port });
  return server;
}
