import { count } from '../../../lib/count.ts';
import {
  Body1,
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Title1,
  Title3,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api/api-error.ts';
import { errorMessage, refreshServerData, useServerData } from '../../../lib/api/server-data.ts';
import { fetchStats, type ComparisonRecord, type Leaderboard, type Stats } from '../stats-api.ts';
import { separationSentence } from '../separation.ts';
import { Page } from '../../../components/Page.tsx';
import { ServerData } from '../../../components/ServerData.tsx';
import { ReactionMixChart } from './ReactionMixChart.tsx';
import { WinRateChart } from './WinRateChart.tsx';
import { flushOutbox } from '../../feedback/index.ts';
import { arenaRules, leftOutSentence } from '../arena-rules.ts';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // A table wider than a phone scrolls within its own frame, not the page; a model's long name wraps.
  scroll: { overflowX: 'auto', maxWidth: '720px' },
  table: { minWidth: '480px' },
  name: { overflowWrap: 'anywhere' },
  caption: { textAlign: 'start', paddingBlock: tokens.spacingVerticalXS, fontWeight: tokens.fontWeightSemibold },
});

const percent = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const READERS = ['All readers', 'Enthusiast', 'Ustaz'] as const;

function recordFor(model: Stats['models'][number], readers: (typeof READERS)[number]): ComparisonRecord {
  return readers === 'All readers' ? model.comparison : model.comparison.byUserType[readers];
}

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

export default function InsightsPage() {
  const stats = useServerData(STATS_PATH, loadStats);
  return (
    <Page label="Insights">
      <ServerData
        promise={stats}
        pending={<Spinner label="Counting the votes…" />}
        failed={(error) => (
          <>
            <Title1 as="h1">Insights</Title1>
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{errorMessage(error, 'Could not load the statistics')}</MessageBarBody>
              {error instanceof ApiError && error.retryable && (
                <MessageBarActions>
                  <Button onClick={() => refreshServerData(STATS_PATH)}>Try again</Button>
                </MessageBarActions>
              )}
            </MessageBar>
          </>
        )}
      >
        {(s) => <StatsView stats={s} />}
      </ServerData>
    </Page>
  );
}

function StatsView({ stats }: { stats: Stats }) {
  const styles = useStyles();
  const winRows = stats.models.flatMap((m) => READERS.map((readers) => ({ model: m, readers, record: recordFor(m, readers) })));
  // Older servers sent neither the bound nor the reasons.
  const rules = stats.dailyRoundBound ? ` ${arenaRules(stats)}` : '';
  const leftOutText = stats.leftOutVotes && stats.rounds.leftOut ? leftOutSentence(stats) : '';
  const leftOut = leftOutText ? ` ${leftOutText}` : '';
  if (stats.votes === 0) {
    return (
      <>
        <Title1 as="h1">Insights</Title1>
        <Body1>
          No votes yet. Search from the dashboard and say how each of the two passages helped: which model readers prefer
          will show here.{leftOut}
        </Body1>
      </>
    );
  }
  const name = (model: string) => (
    <bdi className={styles.name} dir="auto">
      {model}
    </bdi>
  );
  return (
    <>
      <Title1 as="h1">Insights</Title1>
      <Body1>
        {count(stats.votes, 'vote', 'votes')} so far. {count(stats.rounds.compared, 'search', 'searches')} had both results rated and can be compared;
        {' '}
        {stats.rounds.samePassage} more showed the same passage from both models and {stats.rounds.samePassage === 1 ? 'is' : 'are'}{' '}
        counted apart. A model wins a round when readers rated its passage higher (👍 over 🤷 over 👎); its win rate leaves ties out,
        and the bar’s whisker is the 95% Wilson interval. Model names are shown here only; the dashboard stays blind.
        {rules}
        {leftOut}
      </Body1>

      <section className={styles.section} aria-labelledby="win-rate">
        <Title3 as="h2" id="win-rate">
          Which model wins
        </Title3>
        <WinRateChart
          title="Win rate per model and reader type, with 95% intervals"
          rows={winRows.map((r) => ({ label: `${r.model.model} · ${r.readers}`, record: r.record }))}
        />
        <FramedTable label="Win rate per model and reader type">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Model</TableHeaderCell>
              <TableHeaderCell>Readers</TableHeaderCell>
              <TableHeaderCell>Wins</TableHeaderCell>
              <TableHeaderCell>Ties</TableHeaderCell>
              <TableHeaderCell>Losses</TableHeaderCell>
              <TableHeaderCell>Win rate</TableHeaderCell>
              <TableHeaderCell>95% interval</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {winRows.map(({ model, readers, record }) => (
              <TableRow key={`${model.model}-${readers}`}>
                <TableCell>{name(model.model)}</TableCell>
                <TableCell>{readers}</TableCell>
                <TableCell>{record.wins}</TableCell>
                <TableCell>{record.ties}</TableCell>
                <TableCell>{record.losses}</TableCell>
                <TableCell>{percent(record.winRate)}</TableCell>
                <TableCell>{record.interval ? `${percent(record.interval.low)} – ${percent(record.interval.high)}` : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </FramedTable>
      </section>

      <section className={styles.section} aria-labelledby="reactions">
        <Title3 as="h2" id="reactions">
          How readers reacted to each model
        </Title3>
        <ReactionMixChart
          title="Share of 👍, 🤷 and 👎 per model"
          rows={stats.models.map((m) => ({ label: m.model, counts: m.reactions }))}
        />
        <FramedTable label="Reactions per model">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Model</TableHeaderCell>
              <TableHeaderCell>👍 Good result</TableHeaderCell>
              <TableHeaderCell>🤷 Somewhat relevant</TableHeaderCell>
              <TableHeaderCell>👎 Not relevant</TableHeaderCell>
              <TableHeaderCell>Votes</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {stats.models.map((m) => (
              <TableRow key={m.model}>
                <TableCell>{name(m.model)}</TableCell>
                <TableCell>{m.reactions['👍']}</TableCell>
                <TableCell>{m.reactions['🤷']}</TableCell>
                <TableCell>{m.reactions['👎']}</TableCell>
                <TableCell>{m.reactions.total}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </FramedTable>
      </section>

      {stats.leaderboard && <LeaderboardSection board={stats.leaderboard} name={name} />}
    </>
  );
}

/**
 * Which model readers prefer, and how sure that is: each model's Bradley–Terry strength with its
 * 95% interval, the record of every pair, and whether the top two are told apart yet.
 */
function LeaderboardSection({ board, name }: { board: Leaderboard; name: (model: string) => ReactNode }) {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-labelledby="leaderboard">
      <Title3 as="h2" id="leaderboard">
        Leaderboard
      </Title3>
      <Body1>
        Each model’s strength (Bradley–Terry, over {count(board.rounds, 'compared search', 'compared searches')}; 1 is the average model, 2 twice
        its odds of winning a round), with its 95% bootstrap interval. {separationSentence(board.separation)}
      </Body1>
      <FramedTable label="Leaderboard: strength per model with 95% intervals, strongest first">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>Rank</TableHeaderCell>
            <TableHeaderCell>Model</TableHeaderCell>
            <TableHeaderCell>Strength</TableHeaderCell>
            <TableHeaderCell>95% interval</TableHeaderCell>
            <TableHeaderCell>Compared searches</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {board.arms.map((m, i) => (
            <TableRow key={m.model}>
              <TableCell>{i + 1}</TableCell>
              <TableCell>{name(m.model)}</TableCell>
              <TableCell>{m.strength.toFixed(2)}</TableCell>
              <TableCell>
                {m.low.toFixed(2)} – {m.high.toFixed(2)}
              </TableCell>
              <TableCell>{m.rounds}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </FramedTable>
      <FramedTable label="Wins, ties and losses of each model against each other">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>Model</TableHeaderCell>
            <TableHeaderCell>Against</TableHeaderCell>
            <TableHeaderCell>Wins</TableHeaderCell>
            <TableHeaderCell>Ties</TableHeaderCell>
            <TableHeaderCell>Losses</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {board.pairs.map((p) => (
            <TableRow key={`${p.model}\u0000${p.opponent}`}>
              <TableCell>{name(p.model)}</TableCell>
              <TableCell>{name(p.opponent)}</TableCell>
              <TableCell>{p.wins}</TableCell>
              <TableCell>{p.ties}</TableCell>
              <TableCell>{p.losses}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </FramedTable>
    </section>
  );
}

/**
 * A table, named by its caption, that, wider than a phone, scrolls sideways in its own frame
 * (reachable by keyboard), not the page.
 */
function FramedTable({ label, children }: { label: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.scroll} role="region" aria-label={`${label}, scrolls sideways on a narrow screen`} tabIndex={0}>
      <Table className={styles.table} size="small">
        <caption className={styles.caption}>{label}</caption>
        {children}
      </Table>
    </div>
  );
}
