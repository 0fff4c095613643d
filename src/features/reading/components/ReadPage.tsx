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
import { Fragment, useEffect, useRef, useState, useTransition } from 'react';
import { Link, useParams } from 'wouter';
import { CONTEXT_MAX_RADIUS } from '../../../../contract/vocabulary.ts';
import { ApiError } from '../../../lib/api/api-error.ts';
import { fetchPassageContext, passageContextPath, type PassageContext, type Reach } from '../passages-api.ts';
import { errorMessage, refreshServerData, useServerData } from '../../../lib/api/server-data.ts';
import { passageIdOf } from '../passage-id.ts';
import { useDocumentTitle } from '../../../lib/hooks/use-document-title.ts';
import { Page } from '../../../components/Page.tsx';
import { ServerData } from '../../../components/ServerData.tsx';

const useStyles = makeStyles({
  passage: {
    whiteSpace: 'pre-line',
    fontFamily: 'Georgia, "Times New Roman", serif',
    lineHeight: tokens.lineHeightBase500,
    fontSize: tokens.fontSizeBase400,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    margin: 0,
    overflowWrap: 'anywhere',
    // Focused by the app when the button that showed it is gone, never by Tab.
    outline: 'none',
  },
  current: {
    backgroundColor: tokens.colorBrandBackground2,
    borderLeft: `4px solid ${tokens.colorBrandStroke1}`,
  },
  notes: { color: tokens.colorNeutralForeground2 },
  more: { alignSelf: 'flex-start' },
  // Read by screen readers, not shown.
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
});

const STEP = 3;

/** A passage inside its chapter, with neighbours before and after; /read/:id is a link to share. */
export default function ReadPage() {
  const { id: raw = '' } = useParams<{ id: string }>();
  const id = passageIdOf(raw);
  // Another passage is another reading: it starts afresh, with its own reach and scroll.
  return (
    <Page label="Read in context">
      <Reading key={id} id={id} />
    </Page>
  );
}

function Reading({ id }: { id: string }) {
  const [reach, setReach] = useState<Reach>({ before: STEP, after: STEP });
  const [, startTransition] = useTransition();
  // Which way the reader last asked for more: the focus goes on that way if its button goes.
  const [asked, setAsked] = useState<'before' | 'after' | null>(null);
  // What was shown before "more" was asked for: kept on screen if the more cannot be had.
  const lastShown = useRef<PassageContext | null>(null);
  const context = useServerData(passageContextPath(id, reach), (signal) => fetchPassageContext(id, reach, signal));
  // More neighbours keep the passages on screen while they load (a transition), not a spinner.
  const showMore = (side: 'before' | 'after') => {
    setAsked(side);
    startTransition(() => setReach((r) => ({ ...r, [side]: Math.min(CONTEXT_MAX_RADIUS, r[side] + STEP) })));
  };
  const retry = (error: unknown) =>
    error instanceof ApiError && error.retryable ? (
      <MessageBarActions>
        {/* In a transition: what is shown stays while it loads again, focus and all. */}
        <Button onClick={() => startTransition(() => refreshServerData(passageContextPath(id, reach)))}>Try again</Button>
      </MessageBarActions>
    ) : null;
  return (
    <ServerData
      promise={context}
      pending={<Spinner label="Opening the book…" />}
      failed={(error) =>
        lastShown.current ? (
          <>
            <Passages context={lastShown.current} reach={reach} asked={null} onShowMore={showMore} />
            <MessageBar intent="error" role="alert">
              <MessageBarBody>More of the chapter could not be opened. {errorMessage(error, '')}</MessageBarBody>
              {retry(error)}
            </MessageBar>
          </>
        ) : (
          <>
            <Title1 as="h1">Read in context</Title1>
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{errorMessage(error, 'This passage could not be found')}</MessageBarBody>
              {retry(error)}
            </MessageBar>
            <Link href="/">Back to the start</Link>
          </>
        )
      }
    >
      {(c) => {
        lastShown.current = c;
        return <Passages context={c} reach={reach} asked={asked} onShowMore={showMore} />;
      }}
    </ServerData>
  );
}

function Passages({
  context,
  reach,
  asked,
  onShowMore,
}: {
  context: PassageContext;
  reach: Reach;
  asked: 'before' | 'after' | null;
  onShowMore: (side: 'before' | 'after') => void;
}) {
  const styles = useStyles();
  const current = useRef<HTMLParagraphElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const scrolled = useRef(false);
  useDocumentTitle(`${context.chapter} · Read in context`);

  useEffect(() => {
    if (current.current && !scrolled.current) {
      scrolled.current = true;
      current.current.scrollIntoView({ block: 'center' });
    }
  }, [context]);

  // The button the reader pressed is gone (the chapter's edge is reached): the focus goes to the
  // passage at that edge, where reading goes on, rather than to the page.
  // More to show, and within what a reading may ask for (a chapter longer than that ends there).
  const earlier = context.more_before > 0 && reach.before < CONTEXT_MAX_RADIUS;
  const later = context.more_after > 0 && reach.after < CONTEXT_MAX_RADIUS;
  useEffect(() => {
    const gone = (asked === 'before' && !earlier) || (asked === 'after' && !later);
    const lost = document.activeElement === document.body || document.activeElement === null;
    if (!gone || !lost) return;
    const passages = list.current?.querySelectorAll<HTMLElement>('[data-passage]');
    const edge = asked === 'before' ? passages?.[0] : passages?.[passages.length - 1];
    edge?.focus();
  }, [asked, earlier, later, context]);

  return (
    <>
      <Caption1>The Alchemy of Happiness</Caption1>
      <Title1 as="h1">{context.chapter}</Title1>
      {earlier && (
        <Button className={styles.more} onClick={() => onShowMore('before')}>
          Show earlier passages
        </Button>
      )}
      <div ref={list}>
        {context.passages.map((p, i) => (
          <Fragment key={p.id}>
            {/* Each section under its own heading, where it begins (or where this reading does). */}
            {p.section && p.section !== context.passages[i - 1]?.section && <Title3 as="h2">{p.section}</Title3>}
            <p
              ref={p.id === context.id ? current : undefined}
              tabIndex={-1}
              className={mergeClasses(styles.passage, p.id === context.id && styles.current)}
              data-passage={p.id}
              aria-current={p.id === context.id ? 'true' : undefined}
            >
              {/* aria-current on a paragraph reaches no screen reader: this says it in words. */}
              {p.id === context.id && <span className={styles.hidden}>The passage you opened: </span>}
              {p.text}
            </p>
          </Fragment>
        ))}
      </div>
      {later && (
        <Button className={styles.more} onClick={() => onShowMore('after')}>
          Show later passages
        </Button>
      )}
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
