import type { Queryable } from './db.ts';

/**
 * Records the models this instance serves, by the name its votes carry (`model_type`): only
 * votes for a model some instance has served count in the statistics.
 */
export async function recordServedModels(db: Queryable, modelTypes: string[]): Promise<void> {
  if (modelTypes.length === 0) return;
  await db.query('INSERT INTO served_models (model_type) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [modelTypes]);
}
