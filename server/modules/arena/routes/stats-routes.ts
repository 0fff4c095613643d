import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Stats, type Stats as StatsReply } from '../../../../contract/api-schemas.ts';
import { computeStatsAsync } from '../stats/model-stats.ts';
import { AnswerCache } from '../stats/stats-cache.ts';
import { readTallies } from '../sql/read-tallies.ts';
import { talliesState, talliesVersion } from '../sql/read-tallies.ts';
import { yieldEvery } from '../stats/time-slices.ts';

/** GET /stats: which model readers prefer. Model names are revealed here, never on the dashboard. */
export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // From the tallies kept at vote time (never every vote), worked out again only when they
  // changed, and, when that is costly, not more than a tenth of the time (stats-cache.ts);
  // requests arriving meanwhile share the work, which gives way to other requests every few ms.
  const stats = new AnswerCache<StatsReply>(
    async () => {
      const pause = yieldEvery(10);
      return computeStatsAsync(await readTallies(app.db, pause), app.settings.dailyRoundBound, pause);
    },
    // Every vote saved before the request is in them (the tallier's catch-up), on any instance.
    // When the votes waiting cannot be tallied now (a lock held past its time-out), the tallies as
    // they stand are answered, and the tallier tries again.
    async () => {
      const now = await talliesState(app.db);
      if (!now.waiting) return now.version;
      await app.tallier.tallyWaiting().catch((error: unknown) => app.log.warn({ err: error }, 'votes waiting could not be tallied before /api/stats'));
      return talliesVersion(app.db);
    },
    () => app.settings.now(),
  );
  const currentStats = () => stats.get();
  app.get('/stats', { onRequest: app.authenticate, schema: { response: { 200: Stats } } }, currentStats);
};
