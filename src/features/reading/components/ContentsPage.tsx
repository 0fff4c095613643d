import { Link as FluentLink, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Link } from 'wouter';
import { useServerData } from '../../../lib/api/server-data.ts';
import { useHydrated } from '../../../lib/hooks/use-hydrated.ts';
import { Page } from '../../../components/Page.tsx';
import { ServerData } from '../../../components/ServerData.tsx';
import { OfflineBookControl } from '../../offline/index.ts';
import { BOOK_KEY, loadBook } from '../book-api.ts';
import type { Book } from '../book.ts';
import { partShortName, sectionsOf } from '../reader-text.ts';
import { readReadingPlace } from '../reading-place.ts';
import { ResultsLink } from './BackToResults.tsx';
import { BookUnavailable } from './BookUnavailable.tsx';
import { ReaderFrame } from './ReaderFrame.tsx';
import { useReaderStyles } from './reader-styles.ts';

const useStyles = makeStyles({
  parts: { listStyleType: 'none', padding: 0, margin: '1.5em 0', '& > li': { margin: '0 0 0.9em' } },
  sections: { listStyleType: 'none', paddingInlineStart: '1.2em', margin: '0.3em 0 0', fontSize: '0.9em', '& > li': { margin: '0.2em 0' } },
  edition: { fontStyle: 'italic', margin: '0 0 1em' },
  continue: { fontFamily: tokens.fontFamilyBase, fontSize: tokens.fontSizeBase400, margin: '1em 0' },
  offline: { marginTop: tokens.spacingVerticalXL },
});

/** /read: the book's table of contents, with "Continue reading" where this device left off. */
export default function ContentsPage() {
  const book = useServerData(BOOK_KEY, loadBook);
  return (
    <Page label="Contents">
      <ServerData
        promise={book}
        pending={<Spinner label="Opening the book…" />}
        failed={(error) => <BookUnavailable error={error} />}
      >
        {(b) => <Contents book={b} />}
      </ServerData>
      <div className={useStyles().offline}>
        <OfflineBookControl purpose="read" />
      </div>
    </Page>
  );
}

function Contents({ book }: { book: Book }) {
  const styles = useStyles();
  const reader = useReaderStyles();
  const hydrated = useHydrated();
  const place = hydrated ? readReadingPlace() : null;
  const placePart = place ? book.parts.find((p) => p.slug === place.part) : undefined;
  return (
    <ReaderFrame way={hydrated && <ResultsLink />}>
      <article className={reader.column} aria-labelledby="contents-heading">
        <h1 id="contents-heading" className={reader.partHeading}>
          {book.title}
        </h1>
        <p className={styles.edition}>By al-Ghazzali. {book.edition}</p>
        {placePart && place && (
          <p className={styles.continue}>
            <Link href={`/read/${placePart.slug}#p${place.n}`} asChild>
              <FluentLink>
                Continue reading: {partShortName(placePart)}, paragraph {place.n}
              </FluentLink>
            </Link>
          </p>
        )}
        <h2 className={reader.sectionHeading}>Contents</h2>
        <ol className={styles.parts}>
          {book.parts.map((part) => (
            <li key={part.slug}>
              <Link href={`/read/${part.slug}`}>{part.heading}</Link>
              {sectionsOf(part).length > 0 && (
                <ul className={styles.sections}>
                  {sectionsOf(part).map((s) => (
                    <li key={s.n}>
                      <Link href={`/read/${part.slug}#p${s.n}`}>{s.heading}</Link>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      </article>
    </ReaderFrame>
  );
}
