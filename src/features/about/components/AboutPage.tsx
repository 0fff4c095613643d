import { Suspense } from 'react';
import { Body1, Link as FluentLink, makeStyles, Spinner, Subtitle1, Title1, Title3, tokens } from '@fluentui/react-components';
import { fetchHealth, HEALTH_PATH, type Health } from '../health-api.ts';
import { useServerData } from '../../../lib/api/server-data.ts';
import { armWords } from '../../../lib/arms.ts';
import { BOOK_SOURCE_URL, SOURCE_REPOSITORY_URL } from '../../../lib/constants.ts';
import { useHydrated } from '../../../lib/hooks/use-hydrated.ts';
import { Page } from '../../../components/Page.tsx';
import { ServerData } from '../../../components/ServerData.tsx';
import { OfflineBookControl } from '../../offline/index.ts';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  // The lineup arrives from the server: its space is kept so that nothing below it moves.
  lineup: { minHeight: '3rem', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

/** The arms every server runs (the weight-free pool), and the two that join where their weights are (docs/arena-pool.md). */
const ALWAYS = ['LSA', 'SIF', 'BM25'];
const WITH_WEIGHTS = ['BGE', 'UAE'];

const lineupPending = <Spinner size="tiny" label="Asking the server which methods it runs…" />;

/** "a", "a and b", "a, b and c", each in quotes. */
function quoted(names: string[]): string {
  const q = names.map((n) => `“${n}”`);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} and ${q.at(-1)}`;
}

function Lineup({ health }: { health: Health }) {
  const name = (m: Health['models'][number]) => armWords(`${m.family} ${m.name}`).name;
  const ready = health.models.filter((m) => m.status === 'ready');
  const down = health.models.filter((m) => m.status !== 'ready');
  return (
    <>
      <Body1 data-testid="model-lineup">
        Right now this server runs {ready.length === 1 ? 'one method' : `${ready.length} methods`}: {quoted(ready.map(name))}.
        {down.length > 0 && ` ${quoted(down.map(name))} could not be started, and ${down.length === 1 ? 'is' : 'are'} left out until ${down.length === 1 ? 'it is' : 'they are'}.`}
      </Body1>
      <Body1>
        The book is divided into {health.corpus.passages} passages across {health.corpus.chapters} parts.
      </Body1>
    </>
  );
}

function LineupFromServer() {
  const health = useServerData(HEALTH_PATH, fetchHealth);
  return (
    <ServerData
      promise={health}
      pending={lineupPending}
      failed={() => <Body1>Which of them this server runs right now is shown here when it can be reached.</Body1>}
    >
      {(h) => <Lineup health={h} />}
    </ServerData>
  );
}

/**
 * The lineup is asked for once the page is the app's: the pre-render (and the hydration of its
 * HTML) shows the spinner, as the HTML does.
 */
function ModelLineup() {
  return useHydrated() ? <LineupFromServer /> : lineupPending;
}

function Methods({ families }: { families: string[] }) {
  const styles = useStyles();
  return (
    <ul className={styles.list}>
      {families.map((family) => {
        const words = armWords(family);
        return (
          <li key={family}>
            <Body1>
              <strong>{words.name}</strong>: {words.does}
            </Body1>
          </li>
        );
      })}
    </ul>
  );
}

export default function AboutPage() {
  const styles = useStyles();
  return (
    <Page label="About">
      <Title1 as="h1">About</Title1>
      <section className={styles.section} aria-labelledby="about">
        <Body1 id="about">
          This app lets you search Al-Ghazali’s <em>The Alchemy of Happiness</em> by meaning. Ask a question in your own
          words; two search methods, drawn from several, each find the passage they judge closest, and you see both side by
          side, labelled only A and B in random order. Your reaction to each tells us which method serves readers of
          classical texts better; signed in, Insights shows what readers have found so far.
        </Body1>
      </section>
      {/* Each section below is its own boundary: React takes the pre-rendered page over one section per
          task, committing each apart, rather than the whole page in one long task (docs/benchmarks.md). */}
      <Suspense fallback={null}>
        <section className={styles.section} aria-labelledby="technology">
          <Title3 as="h2" id="technology">
            The Technology
          </Title3>
          <Body1>
            The book is split into passages of about 80 to 200 words. For each question, a method scores every passage and
            offers the one it scores highest. Three methods are always compared:
          </Body1>
          <Methods families={ALWAYS} />
          <Body1>
            The first two learned the book’s own language from the book itself, and both also know how words are related in
            everyday English and how readers today name the book’s ideas. They turn your question and each passage into a list
            of numbers that captures its meaning, and rank passages by cosine similarity: how nearly the two lists point the
            same way. “Matches your words” counts shared words instead, to show how much searching by meaning adds.
          </Body1>
          <Body1>Where a server has the files of two neural models trained on modern English, they join the comparison:</Body1>
          <Methods families={WITH_WEIGHTS} />
          <div className={styles.lineup}>
            <ModelLineup />
          </div>
        </section>
      </Suspense>
      <Suspense fallback={null}>
        <section className={styles.section} aria-labelledby="book">
          <Title3 as="h2" id="book">
            The Book
          </Title3>
          <Body1>
            <em>The Alchemy of Happiness</em> (<em>Kīmiyā-yi Saʿādat</em>) is Abu Hamid al-Ghazali’s Persian abridgment of
            his great <em>Revival of the Religious Sciences</em>, written around 1105. Claud Field’s English version (London,
            John Murray, 1909, in the <em>Wisdom of the East</em> series) gives eight of its sections: the knowledge of self,
            of God, of this world and of the next; music and dancing; self-examination; marriage; and the love of God. The
            translation is in the public domain.{' '}
            <FluentLink href={BOOK_SOURCE_URL} target="_blank" rel="noreferrer">
              Read the scanned edition at sacred-texts.com
            </FluentLink>
            .
          </Body1>
        </section>
      </Suspense>
      <Suspense fallback={null}>
        <section className={styles.section} aria-labelledby="team">
          <Title3 as="h2" id="team">
            The Team
          </Title3>
          <Body1>
            A small team of engineers and readers of classical texts built this app, both the reading app you are using and
            the retrieval service behind it. Enthusiasts and teachers (Ustaz) sign in to compare the search methods; their
            votes decide which one we keep.
          </Body1>
          {SOURCE_REPOSITORY_URL && (
            <Subtitle1 as="p">
              <FluentLink href={SOURCE_REPOSITORY_URL} target="_blank" rel="noreferrer">
                Source repository
              </FluentLink>
            </Subtitle1>
          )}
        </section>
      </Suspense>
      <Suspense fallback={null}>
          <OfflineBookControl />
      </Suspense>
    </Page>
  );
}
