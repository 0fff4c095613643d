import {
  Button,
  Card,
  CardHeader,
  Field,
  Input,
  Link,
  makeStyles,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Spinner,
  Subtitle2,
  Text,
  Title2,
  Title3,
  tokens,
} from '@fluentui/react-components';
import type { FormEvent } from 'react';
import { MAX_QUERY_LENGTH } from '../../../../contract/vocabulary.ts';
import { Page } from '../../../components/Page.tsx';
import { useFeedback, VotePanel } from '../../feedback/index.ts';
import { OfflineBookControl } from '../../offline/index.ts';
import { useSession } from '../../session/index.ts';
import { sharesOnePassage } from '../choose-ab-pair.ts';
import { useSearch, useSearchDraft } from '../use-search.ts';
import { ResultCard, whichResult } from './ResultCard.tsx';
import { Link as RouterLink } from 'wouter';

const useStyles = makeStyles({
  form: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  field: { flexGrow: 1, minWidth: '240px' },
  // Each line of the section on its own (Fluent's Text is inline by default).
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  // A question of one long unbroken word wraps instead of widening the page.
  line: { overflowWrap: 'anywhere' },
  results: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: tokens.spacingHorizontalL },
});

export default function SearchPage() {
  const styles = useStyles();
  const user = useSession((s) => s.user);
  // The question, results and round as this reader left them (Insights and Back keep them).
  const search = useSearch(user);
  const [query, setQuery] = useSearchDraft(user);
  // A new round (id and random A/B order) is made by useSearch when the results arrive.
  const { round } = search;
  const samePassage = sharesOnePassage(round.pair);
  const feedback = useFeedback(round, samePassage);
  const loading = search.status === 'loading';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void search.run(query);
  };

  return (
    <Page label="Dashboard">
      <Title2 as="h1" className={styles.line}>
        Welcome, {user}
      </Title2>
      <Text>
        Compare passages A and B for each question and say which helped.{' '}
        <RouterLink href="/insights" asChild>
          <Link>See which model readers prefer</Link>
        </RouterLink>
      </Text>
      <Card>
        <CardHeader
          header={
            <Title3 as="h2">Explore Al-Ghazali&apos;s Wisdom</Title3>
          }
          description={<Subtitle2 as="p">Search through &quot;The Alchemy of Happiness&quot;</Subtitle2>}
        />
        <form className={styles.form} onSubmit={submit} role="search">
          {/* The field takes no more than a search does; near the limit it counts (a long paste stops at it). */}
          <Field
            label="What would you like to know?"
            className={styles.field}
            hint={query.length > MAX_QUERY_LENGTH * 0.9 ? `${query.length.toLocaleString('en')} of ${MAX_QUERY_LENGTH.toLocaleString('en')} characters` : undefined}
          >
            <Input value={query} onChange={(_, d) => setQuery(d.value)} name="query" maxLength={MAX_QUERY_LENGTH} />
          </Field>
          {/* Never disabled: a new question can be asked while one loads, and focus stays here. */}
          <Button type="submit" appearance="primary" icon={loading ? <Spinner size="tiny" /> : undefined}>
            Search
          </Button>
        </form>
        {loading && <ProgressBar aria-label="Searching" thickness="medium" />}
      </Card>
      {search.error && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{search.error}</MessageBarBody>
        </MessageBar>
      )}
      <section className={styles.section} aria-labelledby="results-heading">
        <Title3 as="h2" id="results-heading">
          Search Results
        </Title3>
        {/* Announced when results arrive; says which question they answer (in its own direction, whatever its script). */}
        <Text as="p" role="status" className={styles.line}>
          {search.status === 'done' && search.results.length === 0 && 'No results found. Try a different query.'}
          {round.pair.length > 0 && (
            <>
              Results for “<bdi>{round.query}</bdi>”
            </>
          )}
        </Text>
        {search.answeredOn === 'device' && search.status !== 'error' && (
          <Text as="p" size={200} data-testid="answered-on-device">
            Answered on this device
          </Text>
        )}
        {samePassage && <Text as="p">Both models chose the same passage.</Text>}
        {round.pair.some((result) => result.highlight) && (
          <Text as="p" size={200}>
            In each passage, the sentence closest to your question is underlined.
          </Text>
        )}
        <div className={styles.results}>
          {/* A passage both models chose is shown once, and rated once for both. */}
          {(samePassage ? round.pair.slice(0, 1) : round.pair).map((result) => (
            <ResultCard key={result.resultLabel} result={result} shared={samePassage}>
              <VotePanel result={result} which={whichResult(result.resultLabel, samePassage)} feedback={feedback.state} onReact={feedback.react} />
            </ResultCard>
          ))}
        </div>
      </section>
      <OfflineBookControl />
    </Page>
  );
}
