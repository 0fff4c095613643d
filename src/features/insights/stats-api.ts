import type { ComparisonRecord, Interval, Leaderboard, ModelStats, ReactionCounts, Stats } from '../../../contract/api-schemas.ts';
import { authorizedFetch, jsonReply } from '../../lib/api/http-client.ts';

export type { ComparisonRecord, Interval, Leaderboard, ModelStats, ReactionCounts, Stats };

export async function fetchStats(signal?: AbortSignal): Promise<Stats> {
  return jsonReply<Stats>(await authorizedFetch('/stats', { signal }), 'Could not load the statistics');
}
