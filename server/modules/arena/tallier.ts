import type { Db } from '../../platform/store/db.ts';
import { anyPending, tallyPending } from './sql/tallies.ts';

export interface TallierOptions {
  db: Db;
  /** How many decided rounds a reader a day count (ARENA_DAILY_ROUNDS). */
  bound: number;
  /** How long after a save its votes wait for others to be tallied with them. */
  delayMs?: number;
  /** How often the store is looked at for votes another instance saved and did not tally (it stopped meanwhile). */
  sweepMs?: number;
  /** A run that failed (the store out of reach): its votes wait for the next. */
  onError?: (error: unknown) => void;
}

/**
 * Brings the votes saved into the tallies (docs/arena.md, "Tallies"). A save stores its votes and
 * marks them waiting (arena_pending) in one statement; the tallier takes the waiting votes of
 * every reader in batches, so that the tallies' statements are paid once a batch, not once a
 * vote. It runs a moment after a save on this instance (`soon`), every few seconds for votes an
 * instance that stopped left waiting, and whenever the tallies must hold every vote saved
 * (`catchUp`: /api/stats, the export, a recheck).
 */
export class Tallier {
  private readonly delayMs: number;
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private closed = false;

  constructor(private readonly options: TallierOptions) {
    this.delayMs = options.delayMs ?? 250;
    this.sweeper = setInterval(() => void this.quietly(() => this.catchUp()), options.sweepMs ?? 5_000);
    this.sweeper.unref();
  }

  /** Votes were saved here: they are tallied within `delayMs`, with those saved meanwhile. */
  soon(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // A save here was seen: no need to ask the store whether votes wait (catchUp) first.
      void this.quietly(() => this.tallyWaiting());
    }, this.delayMs);
  }

  /** Resolves once every vote saved before the call (on any instance) is in the tallies. */
  async catchUp(): Promise<void> {
    if (await anyPending(this.options.db)) await this.tallyWaiting();
  }

  /**
   * Tallies the votes a caller saw waiting; resolves once they are in the tallies. A vote taken by
   * a run not yet committed still shows as waiting: the run started here waits for that one.
   */
  async tallyWaiting(): Promise<void> {
    if (!this.closed) await this.run();
  }

  /** Stops the timers and waits for a run under way; votes still waiting are tallied by the next start, or another instance. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private quietly(work: () => Promise<void>): Promise<void> {
    if (this.closed) return Promise.resolve();
    return work().catch((error: unknown) => this.options.onError?.(error));
  }

  /** One run at a time here: a second waits for the first, then takes what is left. */
  private run(): Promise<void> {
    const previous = this.running;
    const next = (async () => {
      await previous?.catch(() => undefined);
      // A shutdown stops it between batches (the rest wait).
      await tallyPending(this.options.db, this.options.bound, () => this.closed);
    })();
    this.running = next;
    void next.finally(() => {
      if (this.running === next) this.running = null;
    }).catch(() => undefined);
    return next;
  }
}
