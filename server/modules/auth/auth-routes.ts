import { parse as parseForm } from 'fast-querystring';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DetailReply, LoginForm, RefreshRequest, TokenReply } from '../../../contract/api-schemas.ts';
import { describeWait } from './throttle-policy.ts';
import { callerOf } from './authenticate.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { HttpError } from '../../platform/http/errors.ts';
import { utf8Text } from '../../platform/http/request-bodies.ts';

const FORM = 'application/x-www-form-urlencoded';
const SESSION_EXPIRED = 'Session expired. Please login again.';

/** POST /login, /refresh and /logout; the invitations' /invitations/check and /invitations/accept. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The sign-in form (OAuth 2 password grant) is form-encoded, and only that: a context of its own.
  await app.register(async (context) => {
    const form = context.withTypeProvider<TypeBoxTypeProvider>();
    form.removeAllContentTypeParsers();
    // In UTF-8 only, as every body: another charset 415, bytes that are not UTF-8 400.
    form.addContentTypeParser(FORM, { parseAs: 'buffer' }, (request, body, done) => {
      try {
        done(null, parseForm(utf8Text(request, body as Buffer, FORM)));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    form.post(
      '/login',
      { schema: { body: LoginForm, response: { 200: TokenReply } }, config: { contentType: FORM } },
      async (request) => {
        const { username, password } = request.body;
        const outcome = await app.auth.login(username, password, request.ip);
        if (outcome.kind === 'throttled') {
          app.metrics?.loginThrottled.inc();
          throw new HttpError(429, `Too many failed sign-in attempts. ${describeWait(outcome.retryAfterSeconds)}`, {
            'retry-after': String(outcome.retryAfterSeconds),
          });
        }
        if (outcome.kind === 'rejected') {
          request.log.info({ event: 'login-failed' }, 'sign-in rejected');
          app.metrics?.loginFailures.inc();
          throw new HttpError(401, 'Incorrect username or password', { 'www-authenticate': 'Bearer' });
        }
        return outcome.tokens;
      },
    );
  });

  await app.register(invitationRoutes);

  app.post('/refresh', { schema: { body: RefreshRequest, response: { 200: TokenReply } } }, async (request) => {
    const tokens = await app.auth.refresh(request.body.refresh_token);
    if (!tokens) throw new HttpError(401, SESSION_EXPIRED, { 'www-authenticate': 'Bearer' });
    return tokens;
  });

  // Its body is empty (api.md) and never read: whatever a client sends with it, an empty JSON
  // body included, which Fastify's own parser refuses with a 400 (the session then stayed live),
  // is taken up to the body limit and set aside.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null));
    scope.post('/logout', { onRequest: scope.authenticate, schema: { response: { 200: DetailReply } } }, async (request) => {
      await scope.auth.logout(callerOf(request).sessionId);
      return { detail: 'Logged out' };
    });
  });
};
