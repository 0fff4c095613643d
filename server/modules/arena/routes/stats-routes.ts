import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Stats, type Stats as StatsReply } from '../../../../contract/api-schemas.ts';
import { computeStats } from '../stats/model-stats.ts';
import { AnswerCache } from '../stats/stats-cache.ts';
import { tallyVotes, votesVersion } from '../sql/feedback.ts';

/** GET /stats: which model readers prefer. Model names are revealed here, never on the dashboard. */
export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Worked out again only when the votes changed, and, when that is costly, not more than a
  // tenth of the time (stats-cache.ts); requests arriving meanwhile share the work.
  const stats = new AnswerCache<StatsReply>(
    async () => computeStats(await tallyVotes(app.db, app.settings.dailyRoundBound), app.settings.dailyRoundBound),
    () => votesVersion(app.db),
    () => app.settings.now(),
  );
  const currentStats = () => stats.get();
  app.get('/stats', { onRequest: app.authenticate, schema: { response: { 200: Stats } } }, currentStats);
};
