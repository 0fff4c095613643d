import { useSession } from '../session/index.ts';
import { mirrorCredentials } from './credentials-mirror.ts';

function mirror(): void {
  const { authTokens, user } = useSession.getState();
  void mirrorCredentials(authTokens && user ? { access: authTokens.access, username: user } : null).catch(() => undefined);
}

/**
 * Keeps the worker's copy of the current access token (credentials-mirror.ts) in step with the
 * session: now, and whenever the tokens change. Returns a function that stops it.
 */
export function mirrorSessionForWorker(): () => void {
  mirror();
  return useSession.subscribe((state, previous) => {
    if (state.authTokens !== previous.authTokens) mirror();
  });
}
