import type { TokenReply } from '../../contract/api-schemas.ts';
import { apiUrl } from './api-base.ts';
import { ApiError, errorFromResponse, NETWORK_ERROR_MESSAGE } from './api-error.ts';

/** The token reply as received: the client takes `token_type` as bearer and a missing refresh token as none. */
export type TokenResponse = Pick<TokenReply, 'access_token'> & Partial<Omit<TokenReply, 'access_token'>>;

/** POST /login, form-encoded. */
export async function requestLogin(username: string, password: string): Promise<TokenResponse> {
  let response: Response;
  try {
    response = await fetch(apiUrl('/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password, grant_type: 'password' }).toString(),
    });
  } catch {
    throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok) throw await errorFromResponse(response, 'Login failed');
  return (await response.json()) as TokenResponse;
}

/** POST /refresh; the token type defaults to bearer. */
export async function requestRefresh(refreshToken: string): Promise<TokenResponse> {
  let response: Response;
  try {
    response = await fetch(apiUrl('/refresh'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
  } catch {
    throw new ApiError('network', 'Network error during token refresh');
  }
  if (!response.ok) throw await errorFromResponse(response, 'Session expired. Please login again.');
  const body = (await response.json()) as TokenResponse;
  return { ...body, token_type: body.token_type ?? 'bearer' };
}

/** POST /logout with the access token; the reply is not read. */
export async function requestLogout(accessToken: string): Promise<void> {
  const response = await fetch(apiUrl('/logout'), { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw await errorFromResponse(response, 'Logout failed');
}
