import { useEffect } from 'react';
import { serverNow } from '../auth/server-clock.ts';
import { needsRefreshOnCheck, SESSION_CHECK_INTERVAL_MS } from '../auth/token-timing.ts';
import { useSession } from '../stores/session-store.ts';

/** Every 60 s: when the access token has under 5 minutes left, refresh it (a failure signs out). */
export function useSessionCheck(): void {
  useEffect(() => {
    const check = () => {
      const { authTokens, refreshToken } = useSession.getState();
      if (authTokens && needsRefreshOnCheck(authTokens.access, serverNow())) {
        refreshToken().catch((error: unknown) => console.warn('Session refresh failed; signed out.', error));
      }
    };
    const timer = window.setInterval(check, SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);
}
