import { Button, Caption1, makeStyles, mergeClasses, MessageBar, MessageBarBody, Spinner, Title1, Title3, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useParams } from 'wouter';
import { fetchPassageContext, type PassageContext } from '../api/passages-api.ts';
import { Page } from '../components/Page.tsx';

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
  const styles = useStyles();
  const { id = '' } = useParams<{ id: string }>();
  const [radius, setRadius] = useState(STEP);
  const [context, setContext] = useState<PassageContext | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<HTMLParagraphElement>(null);
  const scrolled = useRef(false);

  useEffect(() => {
    fetchPassageContext(id, radius).then(
      (c) => {
        setContext(c);
        setError(null);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : 'This passage could not be found'),
    );
  }, [id, radius]);

  useEffect(() => {
    if (context && current.current && !scrolled.current) {
      scrolled.current = true;
      current.current.scrollIntoView({ block: 'center' });
    }
  }, [context]);

  if (error) {
    return (
      <Page label="Read in context">
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      </Page>
    );
  }
  if (!context) {
    return (
      <Page label="Read in context">
        <Spinner label="Opening the book…" />
      </Page>
    );
  }
  const first = context.passages[0]?.passage_index ?? 0;
  const index = context.passages.find((p) => p.id === context.id)?.passage_index ?? 0;
  const last = context.passages[context.passages.length - 1]?.passage_index ?? 0;
  return (
    <Page label="Read in context">
      <Caption1>The Alchemy of Happiness</Caption1>
      <Title1 as="h1">{context.chapter}</Title1>
      {context.section && <Title3 as="h2">{context.section}</Title3>}
      {index - first >= radius && (
        <Button onClick={() => setRadius((r) => r + STEP)}>Show earlier passages</Button>
      )}
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
      {last - index >= radius && <Button onClick={() => setRadius((r) => r + STEP)}>Show later passages</Button>}
      {context.notes.length > 0 && (
        <section aria-label="Notes" className={styles.notes}>
          {context.notes.map((n) => (
            <Caption1 as="p" key={n.label}>
              Note: {n.text}
            </Caption1>
          ))}
        </section>
      )}
    </Page>
  );
}
