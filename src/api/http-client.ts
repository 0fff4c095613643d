import { useSession } from '../stores/session-store.ts';
import { apiUrl } from './api-base.ts';
import { ApiError, errorFromResponse } from './api-error.ts';

/** What a reader is told when the server cannot be reached (product spec, error catalogue). */
export const NETWORK_ERROR_MESSAGE = 'Network error. Please try again.';

/** Where the reader goes when the session is lost during an ordinary request. */
let onSessionLost: () => void = () => window.location.assign('/');

export function setOnSessionLost(handler: () => void): void {
  onSessionLost = handler;
}

async function send(path: string, init: RequestInit, token?: string): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  try {
    return await fetch(apiUrl(path), { ...init, headers });
  } catch {
    // The browser's own words ("Failed to fetch", "Load failed") tell a reader nothing; the
    // spec's sentence for a server that does not answer does.
    throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  }
}

/**
 * A call with the bearer token. A 401 is retried once after a refresh; when the refresh fails
 * the session is cleared and the reader sent to '/'.
 */
export async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const session = useSession.getState();
  const response = await send(path, init, await session.getAccessToken());
  if (response.status !== 401) return response;
  if (!useSession.getState().authTokens?.refresh) {
    useSession.getState().clearSession();
    throw new ApiError('unauthorized', 'No refresh token', 401);
  }
  let fresh: string;
  try {
    fresh = await useSession.getState().refreshToken();
  } catch (error) {
    if (error instanceof ApiError && !error.endsSession) throw error;
    useSession.getState().clearSession();
    onSessionLost();
    throw error instanceof ApiError ? error : new ApiError('unauthorized', 'Session expired. Please login again.', 401);
  }
  return send(path, init, fresh);
}

/** A call without a token (search is open). */
export async function publicFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return send(path, init);
}

export async function expectOk(response: Response, fallback: string): Promise<Response> {
  if (!response.ok) throw await errorFromResponse(response, fallback);
  return response;
}
