import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Stats } from '../../contract/api-schemas.ts';
import { computeStats } from '../stats/model-stats.ts';
import { listVotesForStats } from '../store/feedback.ts';

/** GET /stats: which model readers prefer. Model names are revealed here, never on the dashboard. */
export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/stats', { onRequest: app.authenticate, schema: { response: { 200: Stats } } }, async () =>
    computeStats(await listVotesForStats(app.db)),
  );
};
