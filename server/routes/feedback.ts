import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FeedbackList, FeedbackQuery, SaveReply, SaveRequest } from '../../contract/api-schemas.ts';
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
   * A reader's votes a minute, counted in the store for every instance: past the limit the batch
   * gets a 429 with Retry-After and is stored later (the client's outbox keeps it until a 2xx).
   * One reader storing votes by the hundred thousand would otherwise fill the database.
   */
  async function checkVoteRate(author: string, votes: number): Promise<void> {
    const limit = app.settings.voteRateLimit;
    if (limit <= 0) return;
    const now = app.settings.now();
    const { windowStartMs, hits } = await countHit(app.db, `votes:${author}`, now, VOTE_WINDOW_MS, votes);
    const verdict = windowVerdict(hits, limit, windowStartMs, VOTE_WINDOW_MS, now);
    if (verdict.allowed) return;
    const seconds = verdict.retryAfterSeconds;
    throw new HttpError(429, `Too many votes at once. ${describeWait(seconds)}`, { 'retry-after': String(seconds) });
  }

  app.post('/save', { bodyLimit: SAVE_BODY_LIMIT_BYTES, schema: { body: SaveRequest, response: { 200: SaveReply } } }, async (request) => {
    // The author is whoever the token names, whatever `username` the item claims.
    const author = callerOf(request).username;
    await checkVoteRate(author, request.body.items.length);
    const outcome = await saveFeedback(app.db, author, request.body.items);
    app.metrics?.votesSaved.inc(outcome.saved);
    app.metrics?.votesDuplicate.inc(outcome.duplicates);
    return outcome;
  });

  app.get('/feedback', { schema: { querystring: FeedbackQuery, response: { 200: FeedbackList } } }, (request) =>
    listFeedback(app.db, callerOf(request).username, request.query.limit),
  );
};
