import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FeedbackList, FeedbackQuery, SaveReply, SaveRequest, type FeedbackItem } from '../../contract/api-schemas.ts';
import { callerOf } from '../http/authenticate.ts';
import { SAVE_BODY_LIMIT_BYTES } from '../http/body-limits.ts';
import { describeWait } from '../auth/throttle-policy.ts';
import { HttpError } from '../http/errors.ts';
import { windowVerdict } from '../http/rate-limit.ts';
import { listFeedback, saveFeedback } from '../store/feedback.ts';
import { countHit } from '../store/rate-limits.ts';

const VOTE_WINDOW_MS = 60_000;

/** POST /save and GET /feedback: a reader's votes. */
export const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  /**
   * Stores a reader's batch, within their votes a minute, counted in the store for every
   * instance. What counts is votes stored: a duplicate (a batch sent again after its reply was
   * lost) stores nothing and counts nothing, and a batch refused for the limit is rolled back,
   * count and all, so the outbox sending it again later is not refused for its own earlier try.
   * Past the limit the batch gets a 429 with Retry-After (the client's outbox keeps it until a
   * 2xx). One reader storing votes by the hundred thousand would otherwise fill the database.
   */
  async function saveWithinVoteLimit(author: string, items: FeedbackItem[]) {
    const limit = app.settings.voteRateLimit;
    if (limit <= 0) return saveFeedback(app.db, author, items);
    const now = app.settings.now();
    return app.db.transaction(async (tx) => {
      const outcome = await saveFeedback(tx, author, items);
      // The reader's count, locked to the end of the transaction: their batches on every instance are counted one after another.
      const { windowStartMs, hits } = await countHit(tx, `votes:${author}`, now, VOTE_WINDOW_MS, outcome.saved);
      const verdict = windowVerdict(hits, limit, windowStartMs, VOTE_WINDOW_MS, now);
      if (verdict.allowed) return outcome;
      const seconds = verdict.retryAfterSeconds;
      throw new HttpError(429, `Too many votes at once. ${describeWait(seconds)}`, { 'retry-after': String(seconds) });
    });
  }

  app.post('/save', { bodyLimit: SAVE_BODY_LIMIT_BYTES, schema: { body: SaveRequest, response: { 200: SaveReply } } }, async (request) => {
    // The author is whoever the token names, whatever `username` the item claims.
    const outcome = await saveWithinVoteLimit(callerOf(request).username, request.body.items);
    app.metrics?.votesSaved.inc(outcome.saved);
    app.metrics?.votesDuplicate.inc(outcome.duplicates);
    return outcome;
  });

  app.get('/feedback', { schema: { querystring: FeedbackQuery, response: { 200: FeedbackList } } }, (request) =>
    listFeedback(app.db, callerOf(request).username, request.query.limit),
  );
};
