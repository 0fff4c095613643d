import { FluentProvider, makeStaticStyles, makeStyles, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useEffect, type ComponentType, type MouseEvent } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { CenteredSpinner } from '../components/CenteredSpinner.tsx';
import { MAIN_ID } from '../lib/constants.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Footer } from '../components/Footer.tsx';
import { NavBar } from './layout/NavBar.tsx';
import { useOutboxStatus } from '../features/feedback/outbox-status.ts';
import { useAppUpdate } from '../features/pwa/register-service-worker.ts';
import LandingPage from './routes/LandingPage.tsx';
import { syncSessionAcrossTabs, useSession, useSessionCheck } from '../features/session/index.ts';
import { useTheme } from '../lib/theme/theme-store.ts';
import { themeFor } from '../lib/theme/themes.ts';
import { ScrollToTop } from './ScrollToTop.tsx';
import { FocusOnRouteChange } from './FocusOnRouteChange.tsx';

const LoginPage = lazy(() => import('../features/session/components/LoginPage.tsx'));
const InvitePage = lazy(() => import('../features/session/components/InvitePage.tsx'));
const LogoutPage = lazy(() => import('../features/session/components/LogoutPage.tsx'));
const TokenRefreshPage = lazy(() => import('../features/session/components/TokenRefreshPage.tsx'));
const AboutPage = lazy(() => import('../features/about/components/AboutPage.tsx'));
const SearchPage = lazy(() => import('../features/search/components/SearchPage.tsx'));
const InsightsPage = lazy(() => import('../features/insights/components/InsightsPage.tsx'));
const ReadPage = lazy(() => import('../features/reading/components/ReadPage.tsx'));
const ContentsPage = lazy(() => import('../features/reading/components/ContentsPage.tsx'));
const SavedPage = lazy(() => import('../features/saved/components/SavedPage.tsx'));
const PrivacyPage = lazy(() => import('./routes/PrivacyPage.tsx'));
const TermsPage = lazy(() => import('./routes/TermsPage.tsx'));

// Message bars show only when votes wait or a new version is ready: loaded then, not up front.
const OutboxStatusBar = lazy(() => import('../features/feedback/components/OutboxStatusBar.tsx'));
const UpdatePrompt = lazy(() => import('../features/pwa/components/UpdatePrompt.tsx'));

const useStyles = makeStyles({
  shell: { minHeight: '100vh', display: 'flex', flexDirection: 'column' },
  // Out of sight until a keyboard reader reaches it: the first stop of Tab on every page.
  skip: {
    position: 'absolute',
    left: '-10000px',
    top: tokens.spacingVerticalS,
    zIndex: 100,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForeground1,
    border: `2px solid ${tokens.colorStrokeFocus2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus': { left: tokens.spacingHorizontalS },
  },
});

/** "Skip to content": past the navigation to the page's main landmark (a real link to #main before the app has loaded). */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  event.preventDefault();
  main.focus();
}
const useGlobalStyles = makeStaticStyles({ body: { margin: 0 } });

/** Signed-in readers only; others go to /login, and back here (question and all) once signed in. */
function Protected({ page: PageComponent }: { page: ComponentType }) {
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const [path] = useLocation();
  const search = useSearch();
  if (isAuthenticated) return <PageComponent />;
  const next = `${path}${search ? `?${search}` : ''}`;
  return <Redirect to={`/login?${new URLSearchParams({ next }).toString()}`} replace />;
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
  useEffect(() => {
    // The outbox's sending (IndexedDB, the replay, the worker's messages) is not needed to show a
    // page: it loads after the first one, out of the first load (docs/benchmarks.md).
    let stop: (() => void) | undefined;
    let stopped = false;
    // Its code missing (a newer version took over) reloads the page (reload-page.ts); the votes wait in IndexedDB meanwhile.
    import('../features/feedback/outbox-sync.ts').then(
      ({ startOutboxSync }) => {
        if (!stopped) stop = startOutboxSync();
      },
      () => undefined,
    );
    return () => {
      stopped = true;
      stop?.();
    };
  }, []);
  useEffect(() => {
    document.documentElement.style.colorScheme = themeMode;
    document.documentElement.dataset.theme = themeMode;
  }, [themeMode]);
  useSessionCheck();
  return (
    <FluentProvider theme={themeFor(themeMode)} className={styles.shell}>
      <ErrorBoundary>
        <a href={`#${MAIN_ID}`} className={styles.skip} onClick={skipToContent}>
          Skip to content
        </a>
        <ScrollToTop />
        <FocusOnRouteChange />
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
            <Route path="/invite/:token" component={InvitePage} />
            <Route path="/logout" component={LogoutPage} />
            <Route path="/token-refresh" component={TokenRefreshPage} />
            <Route path="/about" component={AboutPage} />
            <Route path="/dashboard">
              <Protected page={SearchPage} />
            </Route>
            <Route path="/insights">
              <Protected page={InsightsPage} />
            </Route>
            <Route path="/read" component={ContentsPage} />
            <Route path="/read/:id" component={ReadPage} />
            <Route path="/saved" component={SavedPage} />
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
