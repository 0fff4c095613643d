import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller } from './auth-service.ts';
import { HttpError } from '../../platform/http/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent the request: set by `authenticate`, null on a route without it. */
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** An onRequest hook that lets a request through only with a valid access token of a live session. */
    authenticate(request: FastifyRequest): Promise<void>;
    /**
     * An onRequest hook that lets a request through with a valid access token, its session left
     * to the route's statement to check as it acts (AuthService.liveSession); where that statement
     * finds the session ended, the route answers `sessionEnded()`, as `authenticate` would have.
     */
    authenticateToken(request: FastifyRequest): Promise<void>;
  }
}

const CHALLENGE = { 'www-authenticate': 'Bearer' };

/** The answer to a token that does not hold, or whose session has ended. */
export const sessionEnded = (): HttpError => new HttpError(401, 'Invalid or expired token', CHALLENGE);

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** A hook that lets a request through with a bearer token `resolve` names a caller for. */
function admitting(resolve: (token: string) => Promise<Caller | null>) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    if (!token) throw new HttpError(401, 'Not authenticated', CHALLENGE);
    const caller = await resolve(token);
    if (!caller) throw sessionEnded();
    request.caller = caller;
  };
}

export const authentication = fp(
  async (app) => {
    app.decorateRequest('caller', null);
    app.decorate('authenticate', admitting((token) => app.auth.authenticate(token)));
    app.decorate('authenticateToken', admitting((token) => app.auth.tokenCaller(token)));
  },
  { name: 'authentication', dependencies: ['services'], fastify: '5.x' },
);

/** The caller `authenticate` set; a route behind it always has one. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route is missing the authenticate hook');
  return request.caller;
}
