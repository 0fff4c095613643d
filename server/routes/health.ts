import type { FastifyInstance } from 'fastify';
import type { Db } from '../store/db.ts';

export interface HealthModel {
  id: string;
  family: string;
  name: string;
  dim: number;
  passages: number;
  status?: 'ready' | 'unavailable';
}

/** What /api/health reports beyond the database: the retrieval engine fills this in. */
export interface HealthSource {
  models(): HealthModel[];
  corpusSummary(): { title: string; chapters: number; passages: number };
  lineup(): string;
}

export function healthRoutes(db: Db, source: HealthSource | undefined) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/health', async () => {
      await db.query('SELECT 1');
      const models = source?.models() ?? [];
      return {
        status: models.some((m) => m.status === 'unavailable') ? 'degraded' : 'ok',
        lineup: source?.lineup() ?? 'none',
        models,
        corpus: source?.corpusSummary() ?? { title: '', chapters: 0, passages: 0 },
        database: db.kind,
      };
    });
  };
}
