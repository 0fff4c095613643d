import type { FeedbackItem, SaveReply } from '../../../contract/api-schemas.ts';
import { windowVerdict } from '../../platform/limits/window-verdict.ts';
import type { Db, Queryable } from '../../platform/store/db.ts';
import type { LiveSession } from '../auth/index.ts';
import { saveFeedback, type CheckedFeedback } from './sql/feedback.ts';
import { countHit } from '../../platform/limits/rate-limit-counts.ts';
import type { Tallier } from './tallier.ts';
import type { VoteCheck } from './vote-check.ts';

const VOTE_WINDOW_MS = 60_000;

/** The reader's session has ended (signed out, expired, idle, revoked): nothing of the batch was stored. */
export class SessionEndedError extends Error {
  constructor() {
    super('The session has ended');
  }
}

/** The reader stored more votes this minute than the limit allows: nothing of the batch was stored. */
export class VoteLimitError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many votes at once');
  }
}

export interface VoteServiceOptions {
  db: Db;
  check: VoteCheck;
  /** Votes a minute per reader, counted in the store (shared by every instance on it); 0: no limit. */
  voteRateLimit: number;
  /** Brings the votes saved into the tallies, a moment later (tallier.ts). */
  tallier?: Tallier;
  now: () => number;
}

/** Saving a reader's votes: each checked against what the service showed them (vote-check.ts), within their votes a minute. */
export class VoteService {
  constructor(private readonly options: VoteServiceOptions) {}

  /**
   * Stores a reader's batch, each vote as sent with its verdict (shown-check.ts), within their
   * votes a minute, counted in the store for every instance. What counts is votes stored: a
   * duplicate (a batch sent again after its reply was lost) stores nothing and counts nothing,
   * and a batch refused for the limit is rolled back, count and all (VoteLimitError), so the
   * outbox sending it again later is not refused for its own earlier try. One reader storing
   * votes by the hundred thousand would otherwise fill the database. The tallier brings the votes
   * saved into the tallies a moment later, many readers' at a time. The batch is stored only while
   * the reader's `session` is live, checked by the statement that stores it (SessionEndedError
   * otherwise); null only for readers who have none (the simulations).
   */
  async save(author: string, items: FeedbackItem[], session: LiveSession | null): Promise<SaveReply> {
    const { check } = this.options;
    const now = this.options.now();
    // Checked before the transaction: a search holds no database connection.
    const verdicts = await check.check(author, items, now);
    const checked = items.map((item, i) => ({ ...item, ...verdicts[i]! }));
    const savedAt = new Date(now);
    const outcome = await this.store(author, checked, savedAt, now, session);
    if (outcome.saved > 0) this.options.tallier?.soon();
    return outcome;
  }

  private async store(author: string, checked: CheckedFeedback[], savedAt: Date, now: number, session: LiveSession | null): Promise<SaveReply> {
    const { db, voteRateLimit: limit } = this.options;
    const stored = async (into: Queryable) => {
      const { saved, duplicates, live } = await saveFeedback(into, author, checked, savedAt, session);
      if (!live) throw new SessionEndedError();
      return { saved, duplicates };
    };
    if (limit <= 0) return stored(db);
    return db.transaction(async (tx) => {
      const outcome = await stored(tx);
      // The reader's count, locked to the end of the transaction: their batches on every instance are counted one after another.
      const { windowStartMs, hits } = await countHit(tx, `votes:${author}`, now, VOTE_WINDOW_MS, outcome.saved);
      const verdict = windowVerdict(hits, limit, windowStartMs, VOTE_WINDOW_MS, now);
      if (verdict.allowed) return outcome;
      throw new VoteLimitError(verdict.retryAfterSeconds);
    });
  }
}
