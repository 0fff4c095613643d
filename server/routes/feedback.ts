import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/auth-service.ts';
import type { Db } from '../store/db.ts';
import { listFeedback, saveFeedback, type FeedbackItem } from '../store/feedback.ts';
import { callerOf, requireCaller } from '../http/authenticate.ts';

export const REACTIONS = ['👍', '🤷', '👎'] as const;

const feedbackItem = {
  type: 'object',
  required: [
    'user_type',
    'username',
    'query',
    'retrieved_text',
    'model_type',
    'result_label',
    'reaction',
    'confidence_score',
  ],
  properties: {
    user_type: { type: 'string', enum: ['Enthusiast', 'Ustaz'] },
    username: { type: 'string', maxLength: 200 },
    query: { type: 'string', minLength: 1, maxLength: 1000 },
    retrieved_text: { type: 'string', minLength: 1, maxLength: 10000 },
    model_type: { type: 'string', minLength: 1, maxLength: 200 },
    result_label: { type: 'string', enum: ['A', 'B'] },
    reaction: { type: 'string', enum: REACTIONS },
    confidence_score: { type: 'number' },
    client_id: { type: 'string', format: 'uuid' },
    round_id: { type: 'string', format: 'uuid' },
  },
} as const;

const saveBody = {
  type: 'object',
  required: ['items'],
  properties: { items: { type: 'array', minItems: 1, maxItems: 50, items: feedbackItem } },
} as const;

const feedbackQuery = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
} as const;

export function feedbackRoutes(db: Db, auth: AuthService) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', requireCaller(auth));

    app.post<{ Body: { items: FeedbackItem[] } }>('/save', { schema: { body: saveBody } }, async (request) => {
      // The author is whoever the token names, whatever `username` the item claims.
      return saveFeedback(db, callerOf(request).username, request.body.items);
    });

    app.get<{ Querystring: { limit: number } }>('/feedback', { schema: { querystring: feedbackQuery } }, (request) =>
      listFeedback(db, callerOf(request).username, request.query.limit),
    );
  };
}
