import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/auth-service.ts';
import { describeWait } from '../auth/throttle-policy.ts';
import { requireCaller, callerOf } from '../http/authenticate.ts';
import { HttpError } from '../http/errors.ts';

const loginBody = {
  type: 'object',
  required: ['username', 'password', 'grant_type'],
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 200 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
    grant_type: { type: 'string', enum: ['password'] },
  },
} as const;

const refreshBody = {
  type: 'object',
  required: ['refresh_token'],
  properties: { refresh_token: { type: 'string', minLength: 1, maxLength: 512 } },
} as const;

const FORM = 'application/x-www-form-urlencoded';
const SESSION_EXPIRED = 'Session expired. Please login again.';

export function authRoutes(auth: AuthService) {
  return async function register(app: FastifyInstance): Promise<void> {
    // The sign-in form (OAuth 2 password grant) is form-encoded, and only that: a context of its own.
    await app.register(async (form) => {
      form.removeAllContentTypeParsers();
      await form.register(formbody);
      form.post<{ Body: { username: string; password: string } }>(
        '/login',
        { schema: { body: loginBody }, config: { contentType: FORM } },
        async (request) => {
          const { username, password } = request.body;
          const outcome = await auth.login(username, password, request.ip);
          if (outcome.kind === 'throttled') {
            throw new HttpError(429, `Too many failed sign-in attempts. ${describeWait(outcome.retryAfterSeconds)}`, {
              'retry-after': String(outcome.retryAfterSeconds),
            });
          }
          if (outcome.kind === 'rejected') {
            request.log.info({ event: 'login-failed' }, 'sign-in rejected');
            throw new HttpError(401, 'Incorrect username or password', { 'www-authenticate': 'Bearer' });
          }
          return outcome.tokens;
        },
      );
    });

    app.post<{ Body: { refresh_token: string } }>('/refresh', { schema: { body: refreshBody } }, async (request) => {
      const tokens = await auth.refresh(request.body.refresh_token);
      if (!tokens) throw new HttpError(401, SESSION_EXPIRED, { 'www-authenticate': 'Bearer' });
      return tokens;
    });

    app.post('/logout', { onRequest: requireCaller(auth) }, async (request) => {
      await auth.logout(callerOf(request).sessionId);
      return { detail: 'Logged out' };
    });
  };
}
