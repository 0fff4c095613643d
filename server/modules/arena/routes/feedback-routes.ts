import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isBlankText } from '../../../../contract/blank-text.ts';
import { FeedbackList, FeedbackQuery, SaveReply, SaveRequest } from '../../../../contract/api-schemas.ts';
import { SessionEndedError, VoteLimitError } from '../vote-service.ts';
import { DEVICE_RECEIPT } from '../vote-check.ts';
import { callerOf, sessionEnded } from '../../auth/index.ts';
import { SAVE_BODY_LIMIT_BYTES } from '../../../platform/http/body-limits.ts';
import { describeWait } from '../../auth/index.ts';
import { HttpError } from '../../../platform/http/errors.ts';
import { listFeedback } from '../sql/feedback.ts';

/** POST /save and GET /feedback: a reader's votes. */
export const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A save checks the reader's session in the statement that stores the votes (one round trip,
  // not two); the token is checked here first, as everywhere.
  app.post('/save', { onRequest: app.authenticateToken, bodyLimit: SAVE_BODY_LIMIT_BYTES, schema: { body: SaveRequest, response: { 200: SaveReply } } }, async (request) => {
    // A question of spaces or invisible characters only is none (search refuses it): nothing is stored.
    const blank = request.body.items.findIndex((item) => isBlankText(item.query));
    if (blank >= 0) throw new HttpError(400, `items[${blank}].query must not be empty (it holds only spaces or invisible characters)`);
    try {
      // The author is whoever the token names, whatever `username` the item claims.
      const caller = callerOf(request);
      // A round the device answered is checked by working it out again (searches): an ended
      // session is refused before that work, not only by the statement that would store it.
      if (request.body.items.some((item) => item.receipt === DEVICE_RECEIPT) && !(await app.auth.sessionLive(caller))) throw sessionEnded();
      const outcome = await app.votes.save(caller.username, request.body.items, app.auth.liveSession(caller));
      app.metrics?.votesSaved.inc(outcome.saved);
      app.metrics?.votesDuplicate.inc(outcome.duplicates);
      return outcome;
    } catch (error) {
      if (error instanceof SessionEndedError) throw sessionEnded();
      if (!(error instanceof VoteLimitError)) throw error;
      // The client's outbox keeps the batch until a 2xx, and sends it again after Retry-After.
      const seconds = error.retryAfterSeconds;
      throw new HttpError(429, `Too many votes at once. ${describeWait(seconds)}`, { 'retry-after': String(seconds) });
    }
  });

  app.get('/feedback', { onRequest: app.authenticate, schema: { querystring: FeedbackQuery, response: { 200: FeedbackList } } }, (request) =>
    listFeedback(app.db, callerOf(request).username, request.query.limit),
  );
};
