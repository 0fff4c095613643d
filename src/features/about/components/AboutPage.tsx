import { Body1, Link as FluentLink, makeStyles, Spinner, Subtitle1, Title1, Title3, tokens } from '@fluentui/react-components';
import { fetchHealth, HEALTH_PATH, type Health } from '../health-api.ts';
import { useServerData } from '../../../lib/api/server-data.ts';
import { BOOK_SOURCE_URL, SOURCE_REPOSITORY_URL } from '../../../lib/constants.ts';
import { useHydrated } from '../../../lib/hooks/use-hydrated.ts';
import { Page } from '../../../components/Page.tsx';
import { ServerData } from '../../../components/ServerData.tsx';
import { OfflineBookControl } from '../../offline/index.ts';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
  // The lineup arrives from the server: its space is kept so that nothing below it moves.
  lineup: { minHeight: '8.5rem', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

const lineupPending = <Spinner size="tiny" label="Asking the server for its models…" />;

function Lineup({ health }: { health: Health }) {
  return (
    <>
      <Body1>
        {health.lineup === 'neural'
          ? 'This server runs the two neural embedding models:'
          : 'The neural models’ weights are not installed on this server, so it runs two models fitted on the book itself:'}
      </Body1>
      <ul data-testid="model-lineup">
        {health.models.map((m) => (
          <li key={m.id}>
            <strong>
              {m.family} {m.name}
            </strong>{' '}
            — {m.dim} dimensions, {m.passages} passages indexed
          </li>
        ))}
      </ul>
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
      failed={() => <Body1>The current model lineup is shown here when the server can be reached.</Body1>}
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

export default function AboutPage() {
  const styles = useStyles();
  return (
    <Page label="About">
      <Title1 as="h1">About</Title1>
      <section className={styles.section} aria-labelledby="about">
        <Body1 id="about">
          This app lets you search Al-Ghazali’s <em>The Alchemy of Happiness</em> by meaning. Ask a question in your own
          words; two embedding models each find the passage they judge closest, and you see both side by side, labelled
          only A and B in random order. Your reaction to each tells us which model serves readers of classical texts better.
        </Body1>
      </section>
      <section className={styles.section} aria-labelledby="technology">
        <Title3 as="h2" id="technology">
          The Technology
        </Title3>
        <Body1>
          The book is split into passages of about 80 to 200 words. Each model turns every passage, and your question,
          into a vector of numbers that captures its meaning; results are ranked by cosine similarity between your question’s
          vector and each passage’s. Two model families are compared: BGE (BAAI General Embedding) and UAE (Universal
          AnglE Embedding).
        </Body1>
        <div className={styles.lineup}>
          <ModelLineup />
        </div>
      </section>
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
      <section className={styles.section} aria-labelledby="team">
        <Title3 as="h2" id="team">
          The Team
        </Title3>
        <Body1>
          A small team of engineers and readers of classical texts built this app, both the reading app you are using and
          the retrieval service behind it. Enthusiasts and teachers (Ustaz) sign in to compare the models; their votes
          decide which one we keep.
        </Body1>
        {SOURCE_REPOSITORY_URL && (
          <Subtitle1 as="p">
            <FluentLink href={SOURCE_REPOSITORY_URL} target="_blank" rel="noreferrer">
              Source repository
            </FluentLink>
          </Subtitle1>
        )}
      </section>
      <OfflineBookControl />
    </Page>
  );
}
