import { withinTime } from '../../platform/util/within-time.ts';
import type { Db } from '../../platform/store/db.ts';
import { decidedPairs } from './sql/read-tallies.ts';
import { talliesVersion } from './sql/read-tallies.ts';
import { decidedRoundsPerPair } from './draw.ts';

/** How long the counts are used before the store is asked again. */
export const DECIDED_ROUNDS_TTL_MS = 10_000;
/**
 * A costly count is used this many times its cost at least: tallying 100,000 votes takes an
 * embedded store (in this process) 1.4 s of the event loop, which every 10 s would hold up a
 * seventh of the searches; this way counting takes at most a fiftieth of the time.
 */
const COST_FACTOR = 50;
/** How long a search waits for the very first count before it draws without one. */
const FIRST_READ_MS = 1_000;

/**
 * The decided rounds per pair of arms, as the statistics count them (the same tally /api/stats
 * reads, so the draw balances what the leaderboard counts), read from the store: every instance
 * on one PostgreSQL balances the same counts. Kept for a few seconds per instance (longer when
 * tallying is costly) and read again behind the searches, never in their way: a search uses the
 * counts as they were (slightly stale is fine), and the store is tallied again only when its
 * votes have changed (a look at their count and newest id, which is cheap). A search never waits
 * on the store but the one that asks first, for at most a second: a store that is down leaves the
 * draw to the counts last read (or, before any, to chance among all pairs) until it answers again.
 */
export class DecidedRounds {
  private counts: ReadonlyMap<string, number> = new Map();
  private version: string | null = null;
  private readAt = -Infinity;
  /** What the last tally cost, in ms. */
  private costMs = 0;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: { now: () => number; onError: (error: unknown) => void; dailyRoundBound: number; ttlMs?: number },
  ) {}

  /** The decided rounds per pair (keyed by pairKey), read again behind this call once they are older than the TTL. */
  async current(): Promise<ReadonlyMap<string, number>> {
    if (this.options.now() - this.readAt >= Math.max(this.options.ttlMs ?? DECIDED_ROUNDS_TTL_MS, COST_FACTOR * this.costMs)) {
      const first = this.readAt === -Infinity && this.reading === null;
      const reading = (this.reading ??= this.read().finally(() => (this.reading = null)));
      // read() reports its own failures: only the time running out is caught here.
      if (first) await withinTime(FIRST_READ_MS, () => reading).catch(() => undefined);
    }
    return this.counts;
  }

  private async read(): Promise<void> {
    try {
      const version = await talliesVersion(this.db);
      if (version !== this.version) {
        const started = performance.now();
        this.counts = decidedRoundsPerPair(await decidedPairs(this.db));
        this.costMs = performance.now() - started;
        this.version = version;
      }
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.readAt = this.options.now();
    }
  }
}
