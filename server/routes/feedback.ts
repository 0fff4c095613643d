import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FeedbackList, FeedbackQuery, SaveReply, SaveRequest } from '../../contract/api-schemas.ts';
import { callerOf } from '../http/authenticate.ts';
import { SAVE_BODY_LIMIT_BYTES } from '../http/body-limits.ts';
import { listFeedback, saveFeedback } from '../store/feedback.ts';

/** POST /save and GET /feedback: a reader's votes. */
export const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post('/save', { bodyLimit: SAVE_BODY_LIMIT_BYTES, schema: { body: SaveRequest, response: { 200: SaveReply } } }, async (request) => {
    // The author is whoever the token names, whatever `username` the item claims.
    const outcome = await saveFeedback(app.db, callerOf(request).username, request.body.items);
    app.metrics?.votesSaved.inc(outcome.saved);
    app.metrics?.votesDuplicate.inc(outcome.duplicates);
    return outcome;
  });

  app.get('/feedback', { schema: { querystring: FeedbackQuery, response: { 200: FeedbackList } } }, (request) =>
    listFeedback(app.db, callerOf(request).username, request.query.limit),
  );
};
