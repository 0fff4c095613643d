import { Button, makeStyles, Text, Title2, tokens } from '@fluentui/react-components';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { NETWORK_ERROR_MESSAGE } from '../lib/api/api-error.ts';
import { reloadUnderWay } from '../features/pwa/reload-page.ts';

const useStyles = makeStyles({
  screen: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXL,
    textAlign: 'center',
  },
});

/**
 * A route's code that could not be fetched (no network, and no service worker holding it), in each
 * browser's words: Chromium's, Firefox's, Safari's.
 */
const CODE_NOT_LOADED = /dynamically imported module|importing a module script failed|unable to preload css/i;

/** What the crash screen says: the error's message, but never the browser's own words for a network failure. */
export function crashMessage(error: Error): string {
  return CODE_NOT_LOADED.test(error.message) ? NETWORK_ERROR_MESSAGE : error.message;
}

function CrashScreen({ error }: { error: Error }) {
  const styles = useStyles();
  return (
    <main className={styles.screen} role="alert">
      <Title2 as="h1">Something went wrong</Title2>
      <Text>{crashMessage(error)}</Text>
      <Button appearance="primary" onClick={() => window.location.reload()}>
        Reload page
      </Button>
    </main>
  );
}

/** The top-level crash screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unhandled error in the app', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    // A route's code missing after an update: the page is reloading into the new version.
    return reloadUnderWay() ? null : <CrashScreen error={this.state.error} />;
  }
}
