import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { CenteredSpinner } from '../../../components/CenteredSpinner.tsx';
import { safeRedirect } from '../safe-redirect.ts';
import { useSession } from '../session-store.ts';

export default function TokenRefreshPage() {
  const refreshToken = useSession((s) => s.refreshToken);
  const search = useSearch();
  const [, navigate] = useLocation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const redirect = safeRedirect(new URLSearchParams(search).get('redirect'), window.location.origin);
    refreshToken().then(
      () => navigate(redirect, { replace: true }),
      () => navigate('/login'),
    );
  }, [refreshToken, search, navigate]);
  return <CenteredSpinner label="Authenticating..." />;
}
