import { FluentProvider, makeStaticStyles, makeStyles } from '@fluentui/react-components';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { CenteredSpinner } from '../components/CenteredSpinner.tsx';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { Footer } from '../components/Footer.tsx';
import { NavBar } from '../components/NavBar.tsx';
import { startOutboxSync } from '../feedback/outbox-sync.ts';
import { useOutboxStatus } from '../feedback/outbox-status.ts';
import { useAppUpdate } from '../pwa/register-service-worker.ts';
import LandingPage from '../pages/LandingPage.tsx';
import { syncSessionAcrossTabs, useSession } from '../stores/session-store.ts';
import { useTheme } from '../stores/theme-store.ts';
import { themeFor } from '../theme/themes.ts';
import { ScrollToTop } from './ScrollToTop.tsx';
import { useSessionCheck } from './use-session-check.ts';

const LoginPage = lazy(() => import('../pages/LoginPage.tsx'));
const LogoutPage = lazy(() => import('../pages/LogoutPage.tsx'));
const TokenRefreshPage = lazy(() => import('../pages/TokenRefreshPage.tsx'));
const AboutPage = lazy(() => import('../pages/AboutPage.tsx'));
const DashboardPage = lazy(() => import('../pages/DashboardPage.tsx'));
const InsightsPage = lazy(() => import('../pages/InsightsPage.tsx'));
const ReadPage = lazy(() => import('../pages/ReadPage.tsx'));
const PrivacyPage = lazy(() => import('../pages/PrivacyPage.tsx'));
const TermsPage = lazy(() => import('../pages/TermsPage.tsx'));

// Message bars show only when votes wait or a new version is ready: loaded then, not up front.
const OutboxStatusBar = lazy(() => import('../components/OutboxStatusBar.tsx'));
const UpdatePrompt = lazy(() => import('../components/UpdatePrompt.tsx'));

const useStyles = makeStyles({ shell: { minHeight: '100vh', display: 'flex', flexDirection: 'column' } });
const useGlobalStyles = makeStaticStyles({ body: { margin: 0 } });

/** Signed-in readers only; others go to /login. */
function Protected({ page: PageComponent }: { page: ComponentType }) {
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  return isAuthenticated ? <PageComponent /> : <Redirect to="/login" replace />;
}

function Notices() {
  const outboxBusy = useOutboxStatus((s) => s.pending > 0 || s.deadLetters.length > 0);
  const updateReady = useAppUpdate((s) => s.applyUpdate !== null);
  if (!outboxBusy && !updateReady) return null;
  return (
    <Suspense fallback={null}>
      {updateReady && <UpdatePrompt />}
      {outboxBusy && <OutboxStatusBar />}
    </Suspense>
  );
}

export function App() {
  useGlobalStyles();
  const styles = useStyles();
  const themeMode = useTheme((s) => s.themeMode);
  useEffect(() => syncSessionAcrossTabs(), []);
  useEffect(() => startOutboxSync(), []);
  useEffect(() => {
    document.documentElement.style.colorScheme = themeMode;
    document.documentElement.dataset.theme = themeMode;
  }, [themeMode]);
  useSessionCheck();
  return (
    <FluentProvider theme={themeFor(themeMode)} className={styles.shell}>
      <ErrorBoundary>
        <ScrollToTop />
        {/* Each boundary is taken over (hydrated) from pre-rendered HTML in a task of its own. */}
        <Suspense fallback={null}>
          <NavBar />
        </Suspense>
        <Notices />
        <Suspense fallback={<CenteredSpinner label="Loading…" />}>
          <Switch>
            <Route path="/">
              <LandingPage />
            </Route>
            <Route path="/login" component={LoginPage} />
            <Route path="/logout" component={LogoutPage} />
            <Route path="/token-refresh" component={TokenRefreshPage} />
            <Route path="/about" component={AboutPage} />
            <Route path="/dashboard">
              <Protected page={DashboardPage} />
            </Route>
            <Route path="/insights">
              <Protected page={InsightsPage} />
            </Route>
            <Route path="/read/:id" component={ReadPage} />
            <Route path="/privacy" component={PrivacyPage} />
            <Route path="/terms" component={TermsPage} />
            <Route>
              <LandingPage />
            </Route>
          </Switch>
        </Suspense>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
      </ErrorBoundary>
    </FluentProvider>
  );
}
