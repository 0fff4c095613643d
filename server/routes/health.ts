import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Health } from '../../contract/api-schemas.ts';

/** GET /health: the lineup, the book and the store, for the about page and for operators. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', { schema: { response: { 200: Health } } }, async () => {
    await app.db.query('SELECT 1');
    const models = app.engine?.models() ?? [];
    return {
      status: models.some((m) => m.status === 'unavailable') ? 'degraded' : 'ok',
      lineup: app.engine?.lineup() ?? 'none',
      models,
      corpus: app.engine?.corpusSummary() ?? { title: '', chapters: 0, passages: 0 },
      database: app.db.kind,
    };
  });
};
