import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/auth-service.ts';
import { requireCaller } from '../http/authenticate.ts';
import { computeStats } from '../stats/model-stats.ts';
import type { Db } from '../store/db.ts';
import { listVotesForStats } from '../store/feedback.ts';

/** GET /api/stats: which model readers prefer. Model names are revealed here, never on the dashboard. */
export function statsRoutes(db: Db, auth: AuthService) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/stats', { onRequest: requireCaller(auth) }, async () => computeStats(await listVotesForStats(db)));
  };
}
