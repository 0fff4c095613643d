import {
  Button,
  Caption1,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Title1,
  Title3,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef, useState, useTransition } from 'react';
import { useParams } from 'wouter';
import { ApiError } from '../api/api-error.ts';
import { fetchPassageContext, passageContextPath, type PassageContext } from '../api/passages-api.ts';
import { errorMessage, refreshServerData, useServerData } from '../api/server-data.ts';
import { Page } from '../components/Page.tsx';
import { ServerData } from '../components/ServerData.tsx';

const useStyles = makeStyles({
  passage: {
    whiteSpace: 'pre-line',
    fontFamily: 'Georgia, "Times New Roman", serif',
    lineHeight: tokens.lineHeightBase500,
    fontSize: tokens.fontSizeBase400,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    margin: 0,
  },
  current: {
    backgroundColor: tokens.colorBrandBackground2,
    borderLeft: `4px solid ${tokens.colorBrandStroke1}`,
  },
  notes: { color: tokens.colorNeutralForeground2 },
});

const STEP = 3;

/** A passage inside its chapter, with neighbours before and after; /read/:id is a link to share. */
export default function ReadPage() {
  const { id = '' } = useParams<{ id: string }>();
  // Another passage is another reading: it starts afresh, with its own radius and scroll.
  return (
    <Page label="Read in context">
      <Reading key={id} id={id} />
    </Page>
  );
}

function Reading({ id }: { id: string }) {
  const [radius, setRadius] = useState(STEP);
  const [, startTransition] = useTransition();
  const context = useServerData(passageContextPath(id, radius), (signal) => fetchPassageContext(id, radius, signal));
  // More neighbours keep the passages on screen while they load (a transition), not a spinner.
  const showMore = () => startTransition(() => setRadius((r) => r + STEP));
  return (
    <ServerData
      promise={context}
      pending={<Spinner label="Opening the book…" />}
      failed={(error) => (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{errorMessage(error, 'This passage could not be found')}</MessageBarBody>
          {error instanceof ApiError && error.retryable && (
            <MessageBarActions>
              <Button onClick={() => refreshServerData(passageContextPath(id, radius))}>Try again</Button>
            </MessageBarActions>
          )}
        </MessageBar>
      )}
    >
      {(c) => <Passages context={c} radius={radius} onShowMore={showMore} />}
    </ServerData>
  );
}

function Passages({ context, radius, onShowMore }: { context: PassageContext; radius: number; onShowMore: () => void }) {
  const styles = useStyles();
  const current = useRef<HTMLParagraphElement>(null);
  const scrolled = useRef(false);

  useEffect(() => {
    if (current.current && !scrolled.current) {
      scrolled.current = true;
      current.current.scrollIntoView({ block: 'center' });
    }
  }, [context]);

  const first = context.passages[0]?.passage_index ?? 0;
  const index = context.passages.find((p) => p.id === context.id)?.passage_index ?? 0;
  const last = context.passages[context.passages.length - 1]?.passage_index ?? 0;
  return (
    <>
      <Caption1>The Alchemy of Happiness</Caption1>
      <Title1 as="h1">{context.chapter}</Title1>
      {context.section && <Title3 as="h2">{context.section}</Title3>}
      {index - first >= radius && <Button onClick={onShowMore}>Show earlier passages</Button>}
      {context.passages.map((p) => (
        <p
          key={p.id}
          ref={p.id === context.id ? current : undefined}
          className={mergeClasses(styles.passage, p.id === context.id && styles.current)}
          aria-current={p.id === context.id ? 'true' : undefined}
          data-passage={p.id}
        >
          {p.text}
        </p>
      ))}
      {last - index >= radius && <Button onClick={onShowMore}>Show later passages</Button>}
      {context.notes.length > 0 && (
        <section aria-label="Notes" className={styles.notes}>
          {context.notes.map((n) => (
            <Caption1 as="p" key={n.label}>
              Note: {n.text}
            </Caption1>
          ))}
        </section>
      )}
    </>
  );
}
