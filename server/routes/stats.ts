import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Stats, type Stats as StatsReply } from '../../contract/api-schemas.ts';
import { computeStats } from '../stats/model-stats.ts';
import { tallyVotes } from '../store/feedback.ts';

/** GET /stats: which model readers prefer. Model names are revealed here, never on the dashboard. */
export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Requests that arrive while the statistics are being worked out share that answer: many
  // readers (or one, many times) asking at once cost the store one count of every vote.
  let inFlight: Promise<StatsReply> | undefined;
  const currentStats = () => {
    inFlight ??= tallyVotes(app.db)
      .then(computeStats)
      .finally(() => (inFlight = undefined));
    return inFlight;
  };
  app.get('/stats', { onRequest: app.authenticate, schema: { response: { 200: Stats } } }, currentStats);
};
