import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { CenteredSpinner } from '../../../components/CenteredSpinner.tsx';
import { useSession } from '../session-store.ts';

export default function LogoutPage() {
  const logout = useSession((s) => s.logout);
  const [, navigate] = useLocation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout().then(() => navigate('/login'));
  }, [logout, navigate]);
  return <CenteredSpinner label="Logging out..." />;
}
