/** An answer worked out once, with what it was worked out from and what it cost. */
export interface CachedAnswer<T> {
  value: T;
  /** The data's version it was worked out from (votesVersion). */
  version: string;
  /** When it was ready, and how long it took, in ms. */
  readyAt: number;
  costMs: number;
}

/** An answer that took less than this is worked out again whenever its data changed. */
export const CHEAP_MS = 100;
/** A costlier one may be served again, data changed or not, for this many times its cost. */
export const REUSE_FACTOR = 10;

/**
 * Whether a cached answer may be served: always while its data is unchanged; after a change,
 * only while a costly answer is young. With a few thousand votes the statistics take
 * milliseconds and a reader sees a vote counted at once; with a hundred thousand over a dozen
 * models (a bootstrap of 200 fits) they took 1.8 s of the event loop, and a reader asking
 * again and again while votes came in held up every other request. Bounded so, working them out
 * takes at most a tenth of the server's time, and an answer is at most ten times its cost old
 * (and never more than MAX_STALE_MS).
 */
export function mayReuse(answer: CachedAnswer<unknown>, version: string, now: number): boolean {
  if (answer.version === version) return true;
  const age = now - answer.readyAt;
  // The clock is the app's (wall time): set back, the answer is old; set forward during the
  // work, its cost counts for a minute at most.
  return answer.costMs >= CHEAP_MS && age >= 0 && age < Math.min(REUSE_FACTOR * Math.min(answer.costMs, MAX_COST_MS), MAX_STALE_MS);
}

/**
 * The oldest a costly answer is served after a change: a new vote is in the statistics within a
 * few seconds (issue 41: within 5 s at a million votes), whatever the work costs. The work itself
 * gives way to other requests every few ms (time-slices.ts), so it holds none of them up long.
 */
export const MAX_STALE_MS = 3_000;

/** The most a single working-out is taken to cost (a clock set forward meanwhile makes it seem longer). */
export const MAX_COST_MS = 60_000;

/**
 * The latest answer, worked out again only when `mayReuse` says so. Requests arriving while it
 * is worked out share that work.
 */
export class AnswerCache<T> {
  private last?: CachedAnswer<T>;
  private inFlight?: Promise<T>;
  private versionInFlight?: Promise<string>;

  constructor(
    private readonly compute: () => Promise<T>,
    private readonly version: () => Promise<string>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async get(): Promise<T> {
    if (this.inFlight) return this.inFlight;
    // Requests arriving together share one look at the votes, too.
    const version = await (this.versionInFlight ??= this.version().finally(() => (this.versionInFlight = undefined)));
    if (this.last && mayReuse(this.last, version, this.now())) return this.last.value;
    this.inFlight ??= this.refresh(version).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async refresh(version: string): Promise<T> {
    const started = this.now();
    const value = await this.compute();
    const readyAt = this.now();
    this.last = { value, version, readyAt, costMs: readyAt - started };
    return value;
  }
}
