import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Health, Liveness, Readiness } from '../../../contract/api-schemas.ts';
import { HttpError } from '../../platform/http/errors.ts';
import { driverWords } from '../../platform/log.ts';
import { checkDatabase } from '../../platform/store/database-check.ts';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // GET /health: the lineup, the book and the store, for the about page and for operators.
  app.get('/health', { schema: { response: { 200: Health } } }, async () => {
    await app.db.query('SELECT 1');
    const models = app.engine?.models() ?? [];
    return {
      status: models.some((m) => m.status === 'unavailable') ? ('degraded' as const) : ('ok' as const),
      lineup: app.engine?.lineup() ?? 'none',
      models,
      corpus: app.engine?.corpusSummary() ?? { title: '', chapters: 0, passages: 0 },
      database: app.db.kind,
    };
  });

  // For load balancers: the process answers at all.
  app.get('/health/live', { schema: { response: { 200: Liveness } } }, async () => ({ status: 'live' as const }));

  // For load balancers: send work here. Not while draining, nor without the store or the models.
  app.get('/health/ready', { schema: { response: { 200: Readiness } } }, async (request) => {
    if (app.lifecycle.draining) throw new HttpError(503, 'This instance is shutting down');
    const unavailable = (app.engine?.models() ?? []).filter((m) => m.status === 'unavailable');
    if (!app.engine || unavailable.length > 0) throw new HttpError(503, 'The models are not loaded');
    let writable: boolean;
    try {
      ({ writable } = await checkDatabase(app.db));
    } catch (error) {
      // Polled every few seconds by a load balancer through an outage: one short line each.
      request.log.warn({ cause: driverWords(error) }, 'not ready: the store does not answer');
      throw new HttpError(503, 'The database is unavailable');
    }
    // A standby after a failover answers reads, but no vote could be stored here.
    if (!writable) throw new HttpError(503, 'The database is read-only');
    return { status: 'ready' as const };
  });
};
