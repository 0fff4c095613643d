import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { InvitationAccept, InvitationAccepted, InvitationCheck, InvitationReply } from '../../../contract/api-schemas.ts';
import { HttpError } from '../../platform/http/errors.ts';
import type { Refusal } from './invitations.ts';

function refuse(refusal: Refusal): never {
  throw new HttpError(refusal.status, refusal.detail, refusal.headers);
}

/**
 * POST /invitations/check and /invitations/accept. The link's token travels in the body, never in
 * an API path or query, so no log or proxy in between records it.
 */
export const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/invitations/check', { schema: { body: InvitationCheck, response: { 200: InvitationReply } } }, async (request) => {
    const outcome = await app.auth.invitations.check(request.body.token, request.ip);
    if (outcome.refused) refuse(outcome.refused);
    return { user_type: outcome.userType, expires_at: outcome.expiresAt.toISOString() };
  });

  app.post('/invitations/accept', { schema: { body: InvitationAccept, response: { 200: InvitationAccepted } } }, async (request) => {
    const { token, username, password, user_type: userType } = request.body;
    const outcome = await app.auth.invitations.accept({ token, username, password, ...(userType ? { userType } : {}) }, request.ip);
    if (outcome.refused) {
      request.log.info({ event: 'invitation-refused', status: outcome.refused.status }, 'invitation refused');
      refuse(outcome.refused);
    }
    request.log.info({ event: 'invitation-accepted' }, 'account made through an invitation');
    return { ...outcome.tokens, username: outcome.username, user_type: outcome.userType };
  });
};
