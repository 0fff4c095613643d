import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService, Caller } from '../auth/auth-service.ts';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

const CHALLENGE = { 'www-authenticate': 'Bearer' };

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** An onRequest hook that lets a request through only with a valid access token of a live session. */
export function requireCaller(auth: AuthService) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    if (!token) throw new HttpError(401, 'Not authenticated', CHALLENGE);
    const caller = await auth.authenticate(token);
    if (!caller) throw new HttpError(401, 'Invalid or expired token', CHALLENGE);
    request.caller = caller;
  };
}

/** The caller set by requireCaller; a route behind it always has one. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route is missing requireCaller');
  return request.caller;
}
