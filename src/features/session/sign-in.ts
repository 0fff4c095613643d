import { requestLogin, requestLogout } from './auth-api.ts';
import { useSession } from './session-store.ts';
import { ApiError } from '../../lib/api/api-error.ts';

// Signing in and out, apart from the session store: only the sign-in and sign-out pages load
// this, so the first load of every page carries none of it.

/** Signs the reader in with their name and password (POST /login). */
export async function signIn(username: string, password: string): Promise<void> {
  const reply = await requestLogin(username, password);
  if (!reply.refresh_token) throw new ApiError('server', 'Login failed');
  useSession.getState().startSession({ access_token: reply.access_token, refresh_token: reply.refresh_token }, username.trim());
}

/** Tells the server, then clears the session whatever it answered. */
export async function signOut(): Promise<void> {
  const tokens = useSession.getState().authTokens;
  try {
    if (tokens) await requestLogout(tokens.access);
  } catch (error) {
    console.error('Logout failed on the server; signing out here anyway.', error);
  } finally {
    useSession.getState().clearSession();
  }
}
