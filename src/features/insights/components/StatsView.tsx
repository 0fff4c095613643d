import { Body1, makeStyles, Subtitle1, Title1, Title3, tokens } from '@fluentui/react-components';
import { armWords } from '../../../lib/arms.ts';
import { count } from '../../../lib/count.ts';
import type { ModelStats, Stats } from '../stats-api.ts';
import { arenaRules, votesSentence } from '../arena-rules.ts';
import { MIN_ROUNDS_FOR_SHARE, rankArms, verdictSentence } from '../verdict.ts';
import { readersSentence } from '../separation.ts';
import { ReactionMixChart } from './ReactionMixChart.tsx';
import { StatisticsDetails } from './StatisticsDetails.tsx';
import { TechnicalName, VisuallyHidden } from './TechnicalName.tsx';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  verdict: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '720px' },
  flush: { margin: 0 },
  arms: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '720px' },
  arm: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  head: { display: 'flex', alignItems: 'baseline', gap: tokens.spacingHorizontalS },
  rank: { minWidth: '2.2em', fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1, fontVariantNumeric: 'tabular-nums' },
  does: { color: tokens.colorNeutralForeground2 },
  share: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  track: { flexGrow: 1, height: '12px', borderRadius: tokens.borderRadiusSmall, backgroundColor: tokens.colorNeutralBackground3, overflow: 'hidden' },
  // The brand's foreground colour: 3:1 or more against the track in both themes.
  bar: { height: '100%', backgroundColor: tokens.colorBrandForeground1 },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** An arm's record in words, and its share of the rounds it won as a bar once it has enough rounds to mean something. */
function ArmRecord({ model }: { model: ModelStats }) {
  const styles = useStyles();
  const { wins, ties, losses, winRate } = model.comparison;
  const rounds = wins + ties + losses;
  const record = rounds === 0 ? 'No rounds yet.' : `Won ${wins}, tied ${ties} and lost ${losses} of ${count(rounds, 'round', 'rounds')}.`;
  if (rounds < MIN_ROUNDS_FOR_SHARE || winRate === null) return <Body1>{record}</Body1>;
  return (
    <>
      <Body1>{record}</Body1>
      <div className={styles.share}>
        <div className={styles.track} aria-hidden="true">
          <div className={styles.bar} style={{ width: percent(winRate) }} />
        </div>
        <Body1>Won {percent(winRate)} of the rounds that had a winner</Body1>
      </div>
    </>
  );
}

/** The arms as the leaderboard orders them, then any arm not compared yet. */
function armOrder(stats: Stats): string[] {
  const ranked = stats.leaderboard?.arms.map((a) => a.model) ?? [];
  return [...ranked, ...stats.models.map((m) => m.model).filter((m) => !ranked.includes(m))];
}

/** The arms, best first: a shared place for arms the figures cannot tell apart; arms with no comparison yet last. */
function ArmList({ stats }: { stats: Stats }) {
  const styles = useStyles();
  const byModel = new Map(stats.models.map((m) => [m.model, m]));
  const ranked = stats.leaderboard ? rankArms(stats.leaderboard) : [];
  const rankOf = new Map(ranked.map((r) => [r.arm.model, r.rank]));
  const order = armOrder(stats);
  return (
    <ol className={styles.arms}>
      {order.map((model) => {
        const words = armWords(model);
        const rank = rankOf.get(model);
        const stat = byModel.get(model);
        return (
          <li key={model} className={styles.arm} data-testid="arm">
            <div className={styles.head}>
              {rank && (
                <span className={styles.rank}>
                  <span aria-hidden="true">{rank}</span>
                  <VisuallyHidden>{`Place ${rank.replace('=', '')}${rank.startsWith('=') ? ', shared' : ''}: `}</VisuallyHidden>
                </span>
              )}
              <Subtitle1 as="h3" className={styles.flush}>
                {words.name}
              </Subtitle1>
            </div>
            {words.does && <Body1 className={styles.does}>{words.does}</Body1>}
            {stat && <ArmRecord model={stat} />}
            <TechnicalName model={model} name={words.name} />
          </li>
        );
      })}
    </ol>
  );
}

/** How readers reacted to each arm's passages: counts always, a bar only with enough votes behind it. */
function Reactions({ stats }: { stats: Stats }) {
  const styles = useStyles();
  const byModel = new Map(stats.models.map((m) => [m.model, m]));
  const models = armOrder(stats).flatMap((model) => byModel.get(model) ?? []);
  const charted = models.filter((m) => m.reactions.total >= MIN_ROUNDS_FOR_SHARE);
  return (
    <section className={styles.section} aria-labelledby="reactions">
      <Title3 as="h2" id="reactions" className={styles.flush}>
        How readers rated the passages
      </Title3>
      <ul className={styles.list}>
        {models.map((m) => (
          <li key={m.model}>
            <Body1>
              <strong>{armWords(m.model).name}</strong>: {m.reactions['👍']} 👍 good, {m.reactions['🤷']} 🤷 somewhat relevant,{' '}
              {m.reactions['👎']} 👎 not relevant.
            </Body1>
          </li>
        ))}
      </ul>
      {charted.length > 0 ? (
        <ReactionMixChart
          title="Share of 👍 good, 🤷 somewhat relevant and 👎 not relevant for each method"
          rows={charted.map((m) => ({ label: armWords(m.model).name, counts: m.reactions }))}
        />
      ) : (
        <Body1>Shares are drawn once a method has {MIN_ROUNDS_FOR_SHARE} votes.</Body1>
      )}
    </section>
  );
}

/** Rounds both methods answered with one passage: rated, but nothing to compare. */
function samePassage(stats: Stats): string {
  const n = stats.rounds.samePassage;
  if (n === 0) return '';
  return `${count(n, 'more round', 'more rounds')} showed the same passage from both methods: ${n === 1 ? 'its votes count' : 'their votes count'} for that passage, but there was nothing to compare. `;
}

export function StatsView({ stats }: { stats: Stats }) {
  const styles = useStyles();
  // Older servers sent neither the bound nor the reasons.
  const rules = stats.dailyRoundBound ? arenaRules(stats) : '';
  const votes = stats.leftOutVotes && stats.rounds.leftOut ? votesSentence(stats) : `${count(stats.votes, 'vote', 'votes')} so far.`;
  return (
    <>
      <Title1 as="h1">Insights</Title1>
      <div className={styles.verdict}>
        <Subtitle1 as="p" data-testid="verdict" className={styles.flush}>
          {verdictSentence(stats)}
        </Subtitle1>
        {/* How many readers stand behind the verdict (issue 43). */}
        {stats.leaderboard && readersSentence(stats.leaderboard.separation) && (
          <Body1 data-testid="verdict-readers">{readersSentence(stats.leaderboard.separation)}</Body1>
        )}
        <Body1>
          Readers compare two search methods at a time without knowing which is which. A round is one search in which a reader
          rated both passages; the method whose passage was rated higher wins it.
        </Body1>
      </div>

      {stats.votes === 0 ? (
        <Body1>Search from the dashboard and say how each of the two passages helped: which method readers prefer will show here.</Body1>
      ) : (
        <>
          <section className={styles.section} aria-labelledby="methods">
            <Title3 as="h2" id="methods" className={styles.flush}>
              How each search method is doing
            </Title3>
            <ArmList stats={stats} />
            {!stats.models.some((m) => m.comparison.wins + m.comparison.ties + m.comparison.losses >= MIN_ROUNDS_FOR_SHARE) && (
              <Body1>Shares are shown once a method has {MIN_ROUNDS_FOR_SHARE} rounds: before that, one round moves them too far.</Body1>
            )}
          </section>
          <Reactions stats={stats} />
        </>
      )}

      <section className={styles.section} aria-labelledby="counted">
        <Title3 as="h2" id="counted" className={styles.flush}>
          What is counted
        </Title3>
        <Body1>
          {votes} {samePassage(stats)}
          {rules}
        </Body1>
      </section>

      {stats.votes > 0 && <StatisticsDetails stats={stats} />}
    </>
  );
}
