import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { CenteredSpinner } from '../../../components/CenteredSpinner.tsx';
import { signOut } from '../sign-in.ts';

export default function LogoutPage() {
  const [, navigate] = useLocation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut().then(() => navigate('/login'));
  }, [navigate]);
  return <CenteredSpinner label="Logging out..." />;
}
