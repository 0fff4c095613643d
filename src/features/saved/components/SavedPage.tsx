import { useEffect, useState } from 'react';
import { Body1, Button, Caption1, Card, Link, makeStyles, MessageBar, MessageBarBody, Title1, tokens } from '@fluentui/react-components';
import { Page } from '../../../components/Page.tsx';
import { useSession } from '../../session/index.ts';
import { paragraphNumber, readLink, type LocalSaved } from '../saved-merge.ts';
import { editNote, refreshSaved, removeSaved, useSaved } from '../saved-store.ts';
import { NoteForm } from './NoteForm.tsx';

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  excerpt: { margin: 0, fontStyle: 'italic' },
  note: { margin: 0, whiteSpace: 'pre-wrap' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

function SavedCard({ item }: { item: LocalSaved }) {
  const styles = useStyles();
  const [editing, setEditing] = useState(false);
  const n = paragraphNumber(item.anchor);
  const where = `${item.chapter || 'The book'}${n ? `, paragraph ${n}` : ''}`;
  return (
    <li>
      <Card aria-label={where}>
        <Body1 as="p" className={styles.excerpt}>
          “{item.excerpt}”
        </Body1>
        <Caption1>
          <Link href={readLink(item)}>{where}</Link>
        </Caption1>
        {editing ? (
          <NoteForm
            label="Note"
            submitLabel="Save note"
            initial={item.note}
            onSubmit={(note) => void editNote(item, note).then(() => setEditing(false))}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <>
            {item.note && <Body1 as="p" className={styles.note}>Your note: {item.note}</Body1>}
            <div className={styles.actions}>
              <Button onClick={() => setEditing(true)} aria-label={`Edit note (${where})`}>
                {item.note ? 'Edit note' : 'Add a note'}
              </Button>
              <Button onClick={() => void removeSaved(item)} aria-label={`Remove (${where})`}>
                Remove
              </Button>
            </div>
          </>
        )}
      </Card>
    </li>
  );
}

/** /saved: the passages the reader saved, newest first, with their notes. */
export default function SavedPage() {
  const styles = useStyles();
  const { isAuthenticated, user } = useSession();
  const { items, offline } = useSaved();
  useEffect(() => {
    void refreshSaved();
    const again = () => void refreshSaved();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [isAuthenticated, user]);
  return (
    <Page label="Saved passages">
      <Title1 as="h1">Saved passages</Title1>
      {isAuthenticated ? (
        <Body1 as="p">Passages you save are kept on this device and, when it is online, on your account, so they appear wherever you sign in.</Body1>
      ) : (
        <MessageBar intent="info">
          <MessageBarBody>
            You are not signed in, so what you save is kept on this device only. Saves made while signed out stay on this device and
            are not added to your account when you sign in.
          </MessageBarBody>
        </MessageBar>
      )}
      {offline && (
        <MessageBar intent="warning">
          <MessageBarBody>The server cannot be reached: these are the saves on this device, and your changes will be sent when it can.</MessageBarBody>
        </MessageBar>
      )}
      {items.length === 0 ? (
        <Body1 as="p">Nothing saved yet. Use “Save” beside a passage in your search results or in the book.</Body1>
      ) : (
        <ul className={styles.list} aria-label="Your saved passages" data-testid="saved-list">
          {items.map((item) => (
            <SavedCard key={item.id} item={item} />
          ))}
        </ul>
      )}
    </Page>
  );
}
