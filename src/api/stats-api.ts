import { authorizedFetch, expectOk } from './http-client.ts';

export interface Interval {
  low: number;
  high: number;
}

export interface ComparisonRecord {
  wins: number;
  ties: number;
  losses: number;
  winRate: number | null;
  interval: Interval | null;
}

export interface ReactionCounts {
  '👍': number;
  '🤷': number;
  '👎': number;
  total: number;
}

export interface ModelStats {
  model: string;
  reactions: ReactionCounts & { byUserType: Record<'Enthusiast' | 'Ustaz', ReactionCounts> };
  comparison: ComparisonRecord & { byUserType: Record<'Enthusiast' | 'Ustaz', ComparisonRecord> };
}

export interface Stats {
  votes: number;
  rounds: { compared: number; samePassage: number; oneSided: number };
  models: ModelStats[];
  bradleyTerry: Array<{ model: string; strength: number; low: number; high: number }> | null;
}

export async function fetchStats(): Promise<Stats> {
  return (await (await expectOk(await authorizedFetch('/stats'), 'Could not load the statistics')).json()) as Stats;
}
