import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Spinner, Title1 } from '@fluentui/react-components';
import { ApiError } from '../../../lib/api/api-error.ts';
import { refreshServerData, useServerData } from '../../../lib/api/server-data.ts';
import { fetchStats } from '../stats-api.ts';
import { Page } from '../../../components/Page.tsx';
import { ServerData } from '../../../components/ServerData.tsx';
import { flushOutbox } from '../../feedback/index.ts';
import { StatsView } from './StatsView.tsx';

const STATS_PATH = '/stats';
/**
 * The figures count this reader's own latest votes too: any still waiting in the outbox (a vote
 * given a moment ago, or while the server was out of reach) is sent first. A flush that fails
 * leaves them queued, and the figures are read all the same.
 */
const loadStats = async (signal: AbortSignal) => {
  await flushOutbox({ now: true }).catch(() => undefined);
  return fetchStats(signal);
};

/** What went wrong, in a sentence a reader can act on. */
function failure(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'network') {
    return 'The server could not be reached. Check your connection and try again; your own votes stay on this device until they can be sent.';
  }
  if (error instanceof ApiError && error.kind === 'server') return 'The server could not count the votes just now. Please try again in a moment.';
  return error instanceof Error && error.message ? error.message : 'The votes could not be counted just now. Please try again.';
}

function Failed({ error }: { error: unknown }) {
  return (
    <>
      <Title1 as="h1">Insights</Title1>
      <MessageBar intent="error" layout="multiline" role="alert">
        <MessageBarBody>
          <MessageBarTitle>Insights could not be loaded.</MessageBarTitle> {failure(error)}
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => refreshServerData(STATS_PATH)}>Retry</Button>
        </MessageBarActions>
      </MessageBar>
    </>
  );
}

export default function InsightsPage() {
  const stats = useServerData(STATS_PATH, loadStats);
  return (
    <Page label="Insights">
      <ServerData promise={stats} pending={<Spinner label="Counting the votes…" />} failed={(error) => <Failed error={error} />}>
        {(s) => <StatsView stats={s} />}
      </ServerData>
    </Page>
  );
}
