import { apiUrl } from './api-base.ts';
import { ApiError, errorFromResponse, NETWORK_ERROR_MESSAGE } from './api-error.ts';

/**
 * The reader's tokens as this client sends and refreshes them. The session (features/session)
 * owns them and hands them over as it loads (`provideSessionTokens`), so that this shared client
 * needs nothing from a feature; until then the reader counts as signed out.
 */
export interface SessionTokens {
  /** The access token to send, refreshed first when it is about to expire; an ApiError when signed out. */
  accessToken(): Promise<string>;
  /** The tokens held now, or null when signed out. */
  held(): { access: string; refresh: string } | null;
  /** Rotates the tokens, one refresh at a time; an ApiError whose `endsSession` says whether the session is over. */
  refresh(): Promise<string>;
  /** Forgets the session in this browser. */
  clear(): void;
  /** The reader a token was issued to, or null when it cannot be read. */
  readerOf(token: string): string | null;
}

const signedOut = (): Promise<string> => Promise.reject(new ApiError('unauthorized', 'No refresh token'));
let session: SessionTokens = { accessToken: signedOut, held: () => null, refresh: signedOut, clear: () => {}, readerOf: () => null };

export function provideSessionTokens(tokens: SessionTokens): void {
  session = tokens;
}

/** Where the reader goes when the session is lost during an ordinary request. */
let onSessionLost: () => void = () => window.location.assign('/');

export function setOnSessionLost(handler: () => void): void {
  onSessionLost = handler;
}

async function send(path: string, init: RequestInit, token?: string, noAnswer = NETWORK_ERROR_MESSAGE): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  try {
    return await fetch(apiUrl(path), { ...init, headers });
  } catch {
    // The browser's own words ("Failed to fetch", "Load failed") tell a reader nothing; the
    // spec's sentence for a server that does not answer (per call, where the spec names one) does.
    throw new ApiError('network', noAnswer);
  }
}

/**
 * A call with the bearer token. A 401 is retried once after a refresh; when the server refuses
 * the refresh the session is cleared and the reader sent to '/'. `as` names the reader the call
 * is for (a queued vote's author): it is never sent, nor retried, with another reader's token, as
 * the session may change hands meanwhile (a sign-out and a sign-in in another tab).
 */
export async function authorizedFetch(path: string, init: RequestInit = {}, options: { as?: string } = {}): Promise<Response> {
  const token = await session.accessToken();
  requireSubject(token, options.as);
  const response = await send(path, init, token);
  if (response.status !== 401) return response;
  requireSubject(session.held()?.access, options.as);
  if (!session.held()?.refresh) {
    session.clear();
    throw new ApiError('unauthorized', 'No refresh token', 401);
  }
  let fresh: string;
  try {
    fresh = await session.refresh();
  } catch (error) {
    if (error instanceof ApiError && !error.endsSession) throw error;
    session.clear();
    onSessionLost();
    throw error instanceof ApiError ? error : new ApiError('unauthorized', 'Session expired. Please login again.', 401);
  }
  requireSubject(fresh, options.as);
  return send(path, init, fresh);
}

function requireSubject(token: string | undefined, subject: string | undefined): void {
  if (subject !== undefined && (token === undefined || session.readerOf(token) !== subject)) {
    throw new ApiError('unauthorized', 'Signed in as another reader', 401);
  }
}

/**
 * A call open to anyone that carries the reader's token when one is signed in (a search: its
 * receipt names the reader), never refused for it: a token that cannot be had is left out.
 */
export async function readerFetch(path: string, init: RequestInit = {}, noAnswer?: string): Promise<Response> {
  const token = session.held() ? await session.accessToken().catch(() => undefined) : undefined;
  return send(path, init, token, noAnswer);
}

/** A call without a token (search is open); `noAnswer` is what the reader is told when no server answers. */
export async function publicFetch(path: string, init: RequestInit = {}, noAnswer?: string): Promise<Response> {
  return send(path, init, undefined, noAnswer);
}

async function expectOk(response: Response, fallback: string): Promise<Response> {
  if (!response.ok) throw await errorFromResponse(response, fallback);
  return response;
}

/**
 * A successful reply's JSON body. A body that is not JSON (a captive portal's or a sign-in wall's
 * page) is not the server's answer: the reader is told `fallback`, not the parser's words.
 */
export async function jsonReply<T>(response: Response, fallback: string): Promise<T> {
  await expectOk(response, fallback);
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError('network', fallback, response.status);
  }
}
