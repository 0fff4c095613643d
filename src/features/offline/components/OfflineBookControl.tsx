import { Body1, Button, Caption1, makeStyles, MessageBar, MessageBarBody, ProgressBar, Subtitle2, tokens } from '@fluentui/react-components';
import { useEffect } from 'react';
import { cancelDownload, checkOfflineBook, makeBookAvailableOffline, removeOfflineBook, useOfflineBook } from '../offline-book.ts';
import { megabytes } from '../pack-download.ts';

const useStyles = makeStyles({
  // Its space is kept while the device's storage is read, so that nothing below it moves.
  control: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minHeight: '5.5rem' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
});

/**
 * "Make the book available offline": downloads the offline pack once (its size said first, its
 * progress shown), so that searches are answered on this device when the server cannot be
 * reached; and removes it again. On the dashboard and the about page.
 */
export function OfflineBookControl({ purpose = 'search' }: { purpose?: 'search' | 'read' }) {
  const styles = useStyles();
  const book = useOfflineBook();
  useEffect(() => {
    void checkOfflineBook();
  }, []);
  // A server whose models cannot run on a device offers nothing; one kept earlier is still shown.
  if (book.unavailable && !book.stored) return null;
  const percent = book.progress && book.progress.total > 0 ? book.progress.received / book.progress.total : 0;
  return (
    <section className={styles.control} aria-labelledby="offline-book" data-testid="offline-book">
      <Subtitle2 as="h2" id="offline-book">
        {purpose === 'read' ? 'Read with no network' : 'Search with no network'}
      </Subtitle2>
      {book.status === 'ready' && book.stored && (
        <>
          <Body1 role="status">
            The book is available offline on this device ({megabytes(book.stored.storedBytes)}): when the server cannot be reached, your searches are
            answered here, the same way, and every chapter reads here.
          </Body1>
          {!book.stored.persisted && (
            <Caption1>The browser may clear it if the device runs short of space; it is then offered here again.</Caption1>
          )}
          <div className={styles.actions}>
            <Button onClick={() => void removeOfflineBook()}>Remove the offline book</Button>
          </div>
        </>
      )}
      {(book.status === 'downloading' || book.status === 'updating') && book.progress && (
        <>
          <Body1 role="status">
            {book.status === 'updating' ? 'Updating the offline book' : 'Downloading the book'}: {megabytes(book.progress.received)} of{' '}
            {megabytes(book.progress.total)}
          </Body1>
          <ProgressBar value={percent} max={1} thickness="large" aria-label="Offline book download" />
          {book.status === 'downloading' && (
            <div className={styles.actions}>
              <Button onClick={cancelDownload}>Cancel</Button>
            </div>
          )}
        </>
      )}
      {book.status === 'absent' && (
        <>
          <Body1>
            Keep the book and two of its search methods on this device, to read and search it on a plane, in a basement library or on a train
            {book.offer ? `: a download of ${megabytes(book.offer.size)}, once.` : '.'}
          </Body1>
          <div className={styles.actions}>
            <Button appearance="secondary" onClick={() => void makeBookAvailableOffline()}>
              Make the book available offline{book.offer ? ` (${megabytes(book.offer.size)})` : ''}
            </Button>
          </div>
        </>
      )}
      {book.error && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{book.error}</MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}
