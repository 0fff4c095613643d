import { Link as FluentLink, makeStyles, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { useServerData } from '../../../lib/api/server-data.ts';
import { useDocumentTitle } from '../../../lib/hooks/use-document-title.ts';
import { useHydrated } from '../../../lib/hooks/use-hydrated.ts';
import { Page } from '../../../components/Page.tsx';
import { ServerData } from '../../../components/ServerData.tsx';
import { BOOK_KEY, loadBook } from '../book-api.ts';
import type { Book, BookPart } from '../book.ts';
import { passageIdOf } from '../passage-id.ts';
import { neighbours, paragraphOfHash, parseMark, partShortName, type Mark } from '../reader-text.ts';
import { keepReadingPlace, paragraphAt } from '../reading-place.ts';
import { cameFromResults, ResultsLink } from './BackToResults.tsx';
import { Paragraph, type CopyOutcome } from './Paragraph.tsx';
import { BookUnavailable } from './BookUnavailable.tsx';
import { ReaderFrame } from './ReaderFrame.tsx';
import { useReaderStyles } from './reader-styles.ts';
import { PassageRedirect } from './PassageRedirect.tsx';

const useStyles = makeStyles({
  notes: { fontSize: '0.9em' },
  noteList: { paddingInlineStart: '1.6em', margin: 0, '& li': { marginBottom: '0.6em' } },
  around: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    marginTop: '2em',
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
  },
  next: { marginInlineStart: 'auto', textAlign: 'end' },
  status: {
    position: 'fixed',
    insetInline: 0,
    bottom: tokens.spacingVerticalXL,
    margin: '0 auto',
    width: 'fit-content',
    maxWidth: '90vw',
    zIndex: 10,
  },
});

/** /read/<part>: a part of the book (a chapter, the preface…) to read, paragraph by paragraph. */
export default function ReadPage() {
  const { id: raw = '' } = useParams<{ id: string }>();
  const slug = passageIdOf(raw);
  const book = useServerData(BOOK_KEY, loadBook);
  return (
    <Page label="Read">
      <ServerData
        promise={book}
        pending={<Spinner label="Opening the book…" />}
        failed={(error) => (
          <BookUnavailable error={error}>
            <Link href="/read">The book&apos;s contents</Link>
          </BookUnavailable>
        )}
      >
        {(b) => {
          const part = b.parts.find((p) => p.slug === slug);
          // A link of the earlier reader, to a passage (`/read/ch8-19`), goes to its paragraph.
          if (!part) return <PassageRedirect book={b} id={slug} />;
          return <Chapter key={part.slug} book={b} part={part} />;
        }}
      </ServerData>
    </Page>
  );
}

function Chapter({ book, part }: { book: Book; part: BookPart }) {
  const styles = useStyles();
  const reader = useReaderStyles();
  const hydrated = useHydrated();
  const search = useSearch();
  const asked: Mark | null = useMemo(() => parseMark(new URLSearchParams(search).get('mark')), [search]);
  // The pre-rendered page is the part as a shared link shows it, with no sentence marked (its
  // address has no query): the app takes it over as it is, and marks the sentence right after.
  const mark = hydrated ? asked : null;
  const { previous, next } = neighbours(book, part.slug);
  const [copied, setCopied] = useState<CopyOutcome | null>(null);
  const column = useRef<HTMLDivElement>(null);
  useDocumentTitle(part.heading);

  // Footnotes are numbered in the order the chapter lists them.
  const noteNumber = useMemo(() => {
    const numbers = new Map(part.notes.map((n, i) => [n.label, i + 1]));
    return (label: string) => numbers.get(label) ?? 0;
  }, [part]);
  // A note's first mark is where "back" returns to.
  const firstMarks = useMemo(() => {
    const firsts = new Map<string, number>();
    for (const p of part.paragraphs) for (const n of p.notes) if (!firsts.has(n.label)) firsts.set(n.label, p.n);
    return firsts;
  }, [part]);

  // Arriving at a paragraph (#p12, or a result's marked sentence): scrolled to, and the focus put
  // there, so that a keyboard or screen reader goes on from it.
  // Once per arrival: the book's data arriving again (from the network after the pre-rendered
  // page, or a newer copy) must not take the focus back from wherever the reader has gone since.
  // The focus is taken only from nowhere (the body). A pre-rendered page was already scrolled to
  // its paragraph, and the paragraph focused, by the browser from the HTML alone; the reader may
  // have gone on from there (Tab, a paragraph's menu) before the app took the page over. Taking
  // it over moves neither, and marking a result's sentence right after scrolls to it only while
  // the focus is still where the browser put it.
  const [takenOver] = useState(!hydrated);
  const landed = useRef('');
  // Taken over as it was pre-rendered (the default type size), the page is then set in the size
  // chosen on this device: the paragraph it landed on stays where it was on screen, while the
  // focus is still on it. Before the landing below, which may then centre a marked sentence.
  const held = useRef<{ target: HTMLElement; top: number } | null>(null);
  useLayoutEffect(() => {
    const was = held.current;
    if (!hydrated || !was) return;
    held.current = null;
    if (document.activeElement === was.target) window.scrollBy(0, was.target.getBoundingClientRect().top - was.top);
  }, [hydrated]);
  useLayoutEffect(() => {
    const n = paragraphOfHash(window.location.hash) ?? mark?.n ?? null;
    const arrival = `${part.slug}|${window.location.hash}|${mark ? `${mark.n}:${mark.start}-${mark.end}` : ''}`;
    if (landed.current === arrival) return;
    const target = n ? document.getElementById(`p${n}`) : window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
    if (!target) return;
    landed.current = arrival;
    const focus = document.activeElement;
    const stayed = !focus || focus === document.body || focus === target;
    if (takenOver && !stayed) return;
    if (!hydrated) held.current = { target, top: target.getBoundingClientRect().top };
    const sentence = target.querySelector('mark');
    if (hydrated && (!takenOver || sentence)) (sentence ?? target).scrollIntoView({ block: sentence ? 'center' : 'start' });
    if (stayed) target.focus({ preventScroll: true });
  }, [mark, part, hydrated, takenOver]);

  // Where the reader is, kept as they scroll: "Continue reading" goes back there.
  useEffect(() => {
    let pending = 0;
    const keep = () => {
      pending = 0;
      const boxes = [...(column.current?.querySelectorAll<HTMLElement>('[data-paragraph]') ?? [])].map((el) => ({
        n: Number(el.dataset.paragraph),
        bottom: el.getBoundingClientRect().bottom,
      }));
      const n = paragraphAt(boxes, 80);
      if (n !== null) keepReadingPlace({ part: part.slug, n });
    };
    const onScroll = () => {
      if (!pending) pending = window.setTimeout(keep, 400);
    };
    keep();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.clearTimeout(pending);
    };
  }, [part]);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(null), 4000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  return (
    <ReaderFrame
      way={
        <>
          {hydrated && <ResultsLink />}
          <Link href="/read" asChild>
            <FluentLink>Contents</FluentLink>
          </Link>
        </>
      }
    >
      <article className={reader.column} ref={column} aria-labelledby="part-heading">
        <header>
          <p className={reader.kicker}>{book.title}</p>
          <h1 id="part-heading" className={reader.partHeading}>
            {part.heading}
          </h1>
        </header>
        {part.paragraphs.map((p, i) => (
          <div key={p.n}>
            {p.section && p.section !== part.paragraphs[i - 1]?.section && <h2 className={reader.sectionHeading}>{p.section}</h2>}
            <Paragraph
              book={book}
              part={part}
              paragraph={p}
              mark={mark?.n === p.n ? mark : null}
              noteNumber={noteNumber}
              firstMarks={firstMarks}
              onCopied={setCopied}
            />
          </div>
        ))}
        {part.notes.length > 0 && (
          <section className={styles.notes} aria-labelledby="notes-heading">
            <hr className={reader.rule} />
            <h2 id="notes-heading" className={reader.sectionHeading}>
              Notes
            </h2>
            <ol className={styles.noteList}>
              {part.notes.map((note) => (
                <li key={note.label} id={`note-${note.label}`} tabIndex={-1}>
                  {note.text}{' '}
                  {firstMarks.has(note.label) && (
                    <a href={`#ref-${note.label}`} aria-label={`Back to note ${noteNumber(note.label)}'s place in the text`}>
                      ↩
                    </a>
                  )}
                </li>
              ))}
            </ol>
          </section>
        )}
        <nav className={styles.around} aria-label="Chapters">
          {previous && (
            <Link href={`/read/${previous.slug}`} state={cameFromResults()} rel="prev">
              ← Previous: {partShortName(previous)}
            </Link>
          )}
          {next ? (
            <Link className={styles.next} href={`/read/${next.slug}`} state={cameFromResults()} rel="next">
              Next: {next.heading} →
            </Link>
          ) : (
            <Link className={styles.next} href="/read">
              The end. Back to the contents
            </Link>
          )}
        </nav>
      </article>
      {/* Always there, so that a screen reader announces what it comes to say. */}
      <div role="status" className={styles.status}>
        {copied && (
          <MessageBar intent={copied === 'refused' ? 'warning' : 'success'}>
            <MessageBarBody>
              {copied === 'copied'
                ? 'Copied, with its citation.'
                : copied === 'saved'
                  ? 'Saved: it is on your Saved page, where you can add a note.'
                  : 'The browser did not allow copying: select the text and copy it yourself.'}
            </MessageBarBody>
          </MessageBar>
        )}
      </div>
    </ReaderFrame>
  );
}
