import { Link, MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import { useEffect } from 'react';
import { Link as RouterLink, Redirect, useLocation } from 'wouter';
import { useServerData } from '../../../lib/api/server-data.ts';
import { ServerData } from '../../../components/ServerData.tsx';
import type { Book } from '../book.ts';
import { fetchPassageContext, passageContextPath } from '../passages-api.ts';

/** The part a passage id names: `ch8-19` → `ch8`, `editorial-note-1` → `editorial-note`. */
export function partOfPassage(book: Book, id: string): string | null {
  const slug = /^(.+)-\d+$/.exec(id)?.[1];
  return slug && book.parts.some((p) => p.slug === slug) ? slug : null;
}

/** The paragraph a passage begins in: the first whose text holds the passage's opening words. */
export function paragraphOfPassage(book: Book, slug: string, passage: string): number | null {
  const opening = passage.replace(/\s+/g, ' ').trim().slice(0, 60);
  const part = book.parts.find((p) => p.slug === slug);
  return part?.paragraphs.find((p) => p.text.replace(/\s+/g, ' ').includes(opening))?.n ?? null;
}

/**
 * A link of the earlier reader (`/read/ch8-19`, a passage by its id) goes on to the paragraph the
 * passage begins in, or to its chapter's start where the passage cannot be asked for (offline).
 */
export function PassageRedirect({ book, id }: { book: Book; id: string }) {
  const slug = partOfPassage(book, id);
  if (!slug) {
    return (
      <>
        <MessageBar intent="error" role="alert">
          <MessageBarBody>This part of the book could not be found.</MessageBarBody>
        </MessageBar>
        <RouterLink href="/read" asChild>
          <Link>The book&apos;s contents</Link>
        </RouterLink>
      </>
    );
  }
  return <ToPassage book={book} id={id} slug={slug} />;
}

function ToPassage({ book, id, slug }: { book: Book; id: string; slug: string }) {
  const reach = { before: 0, after: 0 };
  const context = useServerData(passageContextPath(id, reach), (signal) => fetchPassageContext(id, reach, signal));
  return (
    <ServerData promise={context} pending={<Spinner label="Opening the book…" />} failed={() => <Redirect to={`/read/${slug}`} replace />}>
      {(c) => <GoTo to={`/read/${slug}${withParagraph(paragraphOfPassage(book, slug, c.passages.find((p) => p.id === c.id)?.text ?? ''))}`} />}
    </ServerData>
  );
}

const withParagraph = (n: number | null) => (n ? `#p${n}` : '');

/** Replaces the address (hash and all: wouter's Redirect keeps it, and the reader scrolls to it). */
function GoTo({ to }: { to: string }) {
  const [, navigate] = useLocation();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return <Spinner label="Opening the book…" />;
}
