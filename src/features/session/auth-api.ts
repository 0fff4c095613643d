import type { TokenReply } from '../../../contract/api-schemas.ts';
import { apiUrl } from '../../lib/api/api-base.ts';
import { ApiError, errorFor, errorFromResponse, NETWORK_ERROR_MESSAGE, serverDetail } from '../../lib/api/api-error.ts';
import { apiObject, POST_NOT_REDIRECTED } from '../../lib/api/api-reply.ts';

/** The token reply as received: the client takes `token_type` as bearer and a missing refresh token as none. */
export type TokenResponse = Pick<TokenReply, 'access_token'> & Partial<Omit<TokenReply, 'access_token'>>;

/**
 * The tokens in a reply, or `undefined` when the reply holds none: a captive portal's or a sign-in
 * wall's 200 page is not the server's answer.
 */
async function tokensIn(response: Response): Promise<TokenResponse | undefined> {
  const body = await apiObject(response);
  return typeof body?.access_token === 'string' && body.access_token ? (body as TokenResponse) : undefined;
}

export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** POST /login, form-encoded. */
export async function requestLogin(username: string, password: string): Promise<TokenResponse> {
  let response: Response;
  try {
    response = await fetch(apiUrl('/login'), {
      ...POST_NOT_REDIRECTED,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password, grant_type: 'password' }).toString(),
    });
  } catch {
    throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  }
  // A redirect (status 0 in a browser, where it stays unfollowed; its 3xx elsewhere) is a portal or
  // a sign-in wall between the reader and the server: the server was not reached.
  if (isRedirect(response)) throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  if (!response.ok) throw await errorFromResponse(response, 'Login failed');
  const tokens = await tokensIn(response);
  if (!tokens) throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  return tokens;
}

const REFRESH_NO_ANSWER = 'Network error during token refresh';

/**
 * POST /refresh; the token type defaults to bearer. Only the API refusing the token (its
 * `{detail}` with a 400, 401 or 403) ends the session: a reply that is not the API's (a captive
 * portal's page, a proxy's 403 or 404 page, a redirect) is no answer, and the reader stays signed in.
 */
export async function requestRefresh(refreshToken: string): Promise<TokenResponse> {
  let response: Response;
  try {
    response = await fetch(apiUrl('/refresh'), {
      ...POST_NOT_REDIRECTED,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
  } catch {
    throw new ApiError('network', REFRESH_NO_ANSWER);
  }
  if (!response.ok) {
    const detail = await serverDetail(response);
    // Not in the API's words: a proxy's or a portal's page, which says nothing of the token.
    if (detail === undefined && response.status < 500) throw new ApiError('network', REFRESH_NO_ANSWER);
    throw errorFor(response.status, detail, 'Session expired. Please login again.');
  }
  const body = await tokensIn(response);
  if (!body) throw new ApiError('network', REFRESH_NO_ANSWER);
  return { ...body, token_type: body.token_type ?? 'bearer' };
}

/** POST /logout with the access token; the reply is not read. */
export async function requestLogout(accessToken: string): Promise<void> {
  const response = await fetch(apiUrl('/logout'), { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw await errorFromResponse(response, 'Logout failed');
}
