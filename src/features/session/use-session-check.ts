import { useEffect } from 'react';
import { serverNow } from './server-clock.ts';
import { needsRefreshOnCheck, SESSION_CHECK_INTERVAL_MS } from './token-timing.ts';
import { useSession } from './session-store.ts';

/**
 * Every 60 s: when the access token has under 5 minutes left, refresh it. The server refusing the
 * token signs the reader out; no answer, or a server in trouble, leaves the session for the next check.
 */
export function useSessionCheck(): void {
  useEffect(() => {
    const check = () => {
      const { authTokens, refreshToken } = useSession.getState();
      if (authTokens && needsRefreshOnCheck(authTokens.access, serverNow())) {
        refreshToken().catch((error: unknown) => console.warn('Session refresh failed.', error));
      }
    };
    const timer = window.setInterval(check, SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);
}
