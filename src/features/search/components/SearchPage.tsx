import {
  Button,
  Field,
  Input,
  Link,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  Spinner,
  Text,
  Title2,
  tokens,
  typographyStyles,
} from '@fluentui/react-components';
import { useEffect, useRef, type FormEvent } from 'react';
import { Link as RouterLink } from 'wouter';
import { saysLittle } from '../../../../common/search/match-strength.ts';
import { MAX_QUERY_LENGTH } from '../../../../contract/vocabulary.ts';
import { Page } from '../../../components/Page.tsx';
import { useFeedback, VotePanel } from '../../feedback/index.ts';
import { OfflineBookControl } from '../../offline/index.ts';
import { ContinueReading } from '../../reading/index.ts';
import { useSession } from '../../session/index.ts';
import { pairAgreement, sharesOnePassage } from '../choose-ab-pair.ts';
import { EXAMPLE_QUESTIONS, questionInAddress } from '../example-questions.ts';
import { useSearch, useSearchDraft } from '../use-search.ts';
import { ResultCard, whichResult } from './ResultCard.tsx';

const useStyles = makeStyles({
  intro: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  form: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  field: { flexGrow: 1, minWidth: '240px' },
  examples: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: tokens.spacingVerticalXS },
  exampleList: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  // An example reads as a question, left-aligned and wrapping on a phone, and is large enough to tap.
  example: { textAlign: 'start', minHeight: '32px', fontSize: tokens.fontSizeBase300 },
  // Each line of the section on its own (Fluent's Text is inline by default).
  // Its lines close together (a paragraph's own margins would double the gap), so that on a phone the first passage starts high.
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, '& > p': { margin: 0 } },
  // The sticky navigation bar does not cover the heading it is scrolled to; focused by the app, not by Tab.
  resultsHeading: { ...typographyStyles.title3, margin: 0, scrollMarginTop: '64px', outline: 'none' },
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
  const answered = search.status === 'done' || (loading && round.pair.length > 0);

  // After a search the reader asked here, the results take the focus (and the screen): on a phone
  // the box stands above them, and the first passage would otherwise be below the fold.
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const asked = useRef(false);
  const ask = (question: string) => {
    asked.current = true;
    void search.run(question);
  };
  useEffect(() => {
    if (!asked.current || search.status === 'loading' || search.status === 'idle') return;
    asked.current = false;
    if (search.status !== 'done') return;
    // Not when the reader has gone elsewhere meanwhile (another control, a new question being typed).
    const active = document.activeElement;
    // The page's heading counts as here: a search asked on arrival finds it focused by the route change.
    const stayed = !active || active === document.body || active.matches('h1, main') || (form.current?.contains(active) && query.trim() === search.query);
    if (stayed) {
      resultsHeading.current?.focus({ preventScroll: true });
      resultsHeading.current?.scrollIntoView({ block: 'start' });
    }
    // Only the search's own arrival moves the focus, not the draft changing after it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search.status, search.query, round.id]);

  // A question in the address (a landing page's example, through sign-in) is asked on arrival.
  useEffect(() => {
    const fromAddress = questionInAddress(window.location.search);
    if (!fromAddress) return;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    setQuery(fromAddress);
    ask(fromAddress);
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    ask(query);
  };
  const askExample = (question: string) => {
    setQuery(question);
    ask(question);
  };

  return (
    <Page label="Dashboard">
      <div className={styles.intro}>
        <Title2 as="h1">Explore Al-Ghazali&apos;s Wisdom</Title2>
        <Text className={styles.line}>
          Welcome, {user}. Search through &quot;The Alchemy of Happiness&quot;: compare passages A and B for each question and say which helped.
        </Text>
      </div>
      <form ref={form} className={styles.form} onSubmit={submit} role="search">
        {/* The field takes no more than a search does; near the limit it counts (a long paste stops at it). */}
        <Field
          label="What would you like to know?"
          className={styles.field}
          hint={query.length > MAX_QUERY_LENGTH * 0.9 ? `${query.length.toLocaleString('en')} of ${MAX_QUERY_LENGTH.toLocaleString('en')} characters` : undefined}
        >
          <Input
            value={query}
            onChange={(_, d) => setQuery(d.value)}
            name="query"
            maxLength={MAX_QUERY_LENGTH}
            placeholder="Ask in your own words, e.g. What is true happiness?"
          />
        </Field>
        {/* Never disabled: a new question can be asked while one loads, and focus stays here. */}
        <Button type="submit" appearance="primary" icon={loading ? <Spinner size="tiny" /> : undefined}>
          Search
        </Button>
      </form>
      {loading && <ProgressBar aria-label="Searching" thickness="medium" />}
      {search.status === 'idle' && (
        <div className={styles.examples}>
          <Text id="examples-label">Or try one of these:</Text>
          <ul className={styles.exampleList} aria-labelledby="examples-label">
            {EXAMPLE_QUESTIONS.map((question) => (
              <li key={question}>
                <Link as="button" className={styles.example} onClick={() => askExample(question)}>
                  {question}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      {search.error && (
        <MessageBar intent="error" role="alert" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>{search.error}</MessageBarTitle>
            {search.retryable && 'The server could not be reached, or could not answer just now.'}
          </MessageBarBody>
          {search.retryable && (
            <MessageBarActions>
              <Button onClick={() => ask(search.query)}>Retry</Button>
            </MessageBarActions>
          )}
        </MessageBar>
      )}
      {search.answeredOn === 'device' && search.status === 'done' && (
        <MessageBar intent="info" layout="multiline" data-testid="answered-on-device">
          <MessageBarBody>
            <MessageBarTitle>Answered on this device</MessageBarTitle>
            The server did not answer, so these passages come from the copy of the book kept on this device.
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => ask(search.query)}>Ask the server again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      <section className={styles.section} aria-labelledby={answered ? 'results-heading' : undefined}>
        {answered && (
          <h2 id="results-heading" tabIndex={-1} ref={resultsHeading} className={styles.resultsHeading}>
            Search Results
          </h2>
        )}
        {/* Announced when results arrive; says which question they answer (in its own direction, whatever its script). */}
        <Text as="p" role="status" className={styles.line}>
          {search.status === 'done' && search.results.length === 0 && 'No results found. Try a different query.'}
          {round.pair.length > 0 && (
            <>
              Results for “<bdi>{round.query}</bdi>”
            </>
          )}
        </Text>
        {samePassage && <Text as="p">Both models chose the same passage.</Text>}
        {round.pair.length > 0 && saysLittle(
            round.pair.map((result) => result.strength),
            pairAgreement(search.results, round.pair),
          ) && (
          <MessageBar intent="info" layout="multiline" data-testid="says-little">
            <MessageBarBody>
              <MessageBarTitle>The book says little about this</MessageBarTitle>
              These are the passages closest to your question, but none stands out as an answer. Asking in other words may find
              more.
            </MessageBarBody>
          </MessageBar>
        )}
        {round.pair.some((result) => result.highlight) && (
          <Text as="p" size={200}>
            In each passage, the sentence closest to your question is underlined.
          </Text>
        )}
        {round.pair.length > 0 && (
          <div className={styles.results}>
            {/* A passage both models chose is shown once, and rated once for both. */}
            {(samePassage ? round.pair.slice(0, 1) : round.pair).map((result) => (
              <ResultCard key={result.resultLabel} result={result} shared={samePassage}>
                <VotePanel result={result} which={whichResult(result.resultLabel, samePassage)} feedback={feedback.state} onReact={feedback.react} />
              </ResultCard>
            ))}
          </div>
        )}
      </section>
      <Text>
        <RouterLink href="/insights" asChild>
          <Link>See which model readers prefer</Link>
        </RouterLink>
      </Text>
      <ContinueReading />
      <OfflineBookControl />
    </Page>
  );
}
