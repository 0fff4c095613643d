import {
  Body1,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { armWords } from '../../../lib/arms.ts';
import { count } from '../../../lib/count.ts';
import type { ComparisonRecord, Leaderboard, Stats } from '../stats-api.ts';
import { separationSentence } from '../separation.ts';
import { rankArms } from '../verdict.ts';

const useStyles = makeStyles({
  details: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '720px' },
  summary: {
    cursor: 'pointer',
    width: 'fit-content',
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorBrandForeground1,
    borderRadius: tokens.borderRadiusSmall,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, marginTop: tokens.spacingVerticalM },
  // A table wider than a phone scrolls within its own frame, not the page.
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  // Columns as wide as their content (Fluent's tables share the width out equally, and a word spilled into the next cell).
  table: { tableLayout: 'auto' },
  // A method's plain name wraps between words, never inside one.
  name: { minWidth: '8em' },
  caption: { textAlign: 'start', paddingBlock: tokens.spacingVerticalXS, fontWeight: tokens.fontWeightSemibold },
});

const percent = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const READERS = ['All readers', 'Enthusiast', 'Ustaz'] as const;
const plain = (model: string) => armWords(model).name;

function recordFor(model: Stats['models'][number], readers: (typeof READERS)[number]): ComparisonRecord {
  return readers === 'All readers' ? model.comparison : model.comparison.byUserType[readers];
}

/**
 * The statistics behind the verdict, closed until asked for: each figure's plain meaning first,
 * then the method's name (Bradley–Terry, Wilson, the bootstrap) for a reader who knows them.
 */
export function StatisticsDetails({ stats }: { stats: Stats }) {
  const styles = useStyles();
  const winRows = stats.models.flatMap((m) => READERS.map((readers) => ({ model: m, readers, record: recordFor(m, readers) })));
  return (
    <details className={styles.details}>
      <summary className={styles.summary}>The figures in detail</summary>
      <div className={styles.body}>
        <Body1>
          The same votes, counted in full, with how sure each figure is: a range marked “95%” holds the true figure 19 times in 20,
          and narrows as rounds are added.
        </Body1>
        {stats.leaderboard && <LeaderboardTables board={stats.leaderboard} />}
        <Body1>
          How often each method won, by kind of reader. Ties are left out of the share: they say neither passage was better. The
          range is a Wilson score interval.
        </Body1>
        <FramedTable label="Wins by method and kind of reader">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Method</TableHeaderCell>
              <TableHeaderCell>Readers</TableHeaderCell>
              <TableHeaderCell>Won</TableHeaderCell>
              <TableHeaderCell>Tied</TableHeaderCell>
              <TableHeaderCell>Lost</TableHeaderCell>
              <TableHeaderCell>Share won</TableHeaderCell>
              <TableHeaderCell>95% range</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {winRows.map(({ model, readers, record }) => (
              <TableRow key={`${model.model}-${readers}`}>
                <TableCell className={styles.name}>{plain(model.model)}</TableCell>
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
        <FramedTable label="Reactions to each method’s passages">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Method</TableHeaderCell>
              <TableHeaderCell>👍 Good result</TableHeaderCell>
              <TableHeaderCell>🤷 Somewhat relevant</TableHeaderCell>
              <TableHeaderCell>👎 Not relevant</TableHeaderCell>
              <TableHeaderCell>Votes</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {stats.models.map((m) => (
              <TableRow key={m.model}>
                <TableCell className={styles.name}>{plain(m.model)}</TableCell>
                <TableCell>{m.reactions['👍']}</TableCell>
                <TableCell>{m.reactions['🤷']}</TableCell>
                <TableCell>{m.reactions['👎']}</TableCell>
                <TableCell>{m.reactions.total}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </FramedTable>
      </div>
    </details>
  );
}

function LeaderboardTables({ board }: { board: Leaderboard }) {
  const styles = useStyles();
  const names = { ...board.separation, leader: plain(board.separation.leader), runnerUp: plain(board.separation.runnerUp) };
  return (
    <>
      <Body1>
        Each method’s strength: 1 is an average method, 2 one with twice its odds of winning a round. It is a Bradley–Terry fit
        over {count(board.rounds, 'round', 'rounds')}, its range from 200 bootstrap resamples. {separationSentence(names)}
      </Body1>
      <FramedTable label="Strength of each method, strongest first">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>Place</TableHeaderCell>
            <TableHeaderCell>Method</TableHeaderCell>
            <TableHeaderCell>Strength</TableHeaderCell>
            <TableHeaderCell>95% range</TableHeaderCell>
            <TableHeaderCell>Rounds</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rankArms(board).map(({ arm, rank }) => (
            <TableRow key={arm.model}>
              <TableCell>{rank}</TableCell>
              <TableCell className={styles.name}>{plain(arm.model)}</TableCell>
              <TableCell>{arm.strength.toFixed(2)}</TableCell>
              <TableCell>
                {arm.low.toFixed(2)} – {arm.high.toFixed(2)}
              </TableCell>
              <TableCell>{arm.rounds}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </FramedTable>
      <FramedTable label="Each method against each other">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>Method</TableHeaderCell>
            <TableHeaderCell>Against</TableHeaderCell>
            <TableHeaderCell>Won</TableHeaderCell>
            <TableHeaderCell>Tied</TableHeaderCell>
            <TableHeaderCell>Lost</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {board.pairs.map((p) => (
            <TableRow key={`${p.model}\u0000${p.opponent}`}>
              <TableCell className={styles.name}>{plain(p.model)}</TableCell>
              <TableCell className={styles.name}>{plain(p.opponent)}</TableCell>
              <TableCell>{p.wins}</TableCell>
              <TableCell>{p.ties}</TableCell>
              <TableCell>{p.losses}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </FramedTable>
    </>
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
      <Table size="small" className={styles.table}>
        <caption className={styles.caption}>{label}</caption>
        {children}
      </Table>
    </div>
  );
}
