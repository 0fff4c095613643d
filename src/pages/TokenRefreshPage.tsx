import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { CenteredSpinner } from '../components/CenteredSpinner.tsx';
import { useSession } from '../stores/session-store.ts';

/** Only a path on this site may be a redirect target (never another origin). */
export function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\') ? target : '/dashboard';
}

export default function TokenRefreshPage() {
  const refreshToken = useSession((s) => s.refreshToken);
  const search = useSearch();
  const [, navigate] = useLocation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const redirect = safeRedirect(new URLSearchParams(search).get('redirect'));
    refreshToken().then(
      () => navigate(redirect, { replace: true }),
      () => navigate('/login'),
    );
  }, [refreshToken, search, navigate]);
  return <CenteredSpinner label="Authenticating..." />;
}
