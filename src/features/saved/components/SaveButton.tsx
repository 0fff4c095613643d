import { useState } from 'react';
import { Button, Field, Link, makeStyles, Textarea, tokens } from '@fluentui/react-components';
import { Bookmark20Regular } from '@fluentui/react-icons';
import { MAX_SAVED_NOTE_LENGTH } from '../../../../contract/vocabulary.ts';
import { savePassage } from '../saved-store.ts';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '40rem' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
});

/**
 * "Save" beside a passage: the reader may add a note, then it is kept on the Saved page (on this
 * device at once; signed in, on their other devices too, through the outbox). Give `anchor` (the
 * paragraph, `ch4#p12`: the reader's page) or `passage` (a search result's id).
 */
export function SaveButton(props: { anchor?: string; passage?: string; chapter: string; excerpt: string; label?: string }) {
  const styles = useStyles();
  const [state, setState] = useState<'idle' | 'note' | 'saved'>('idle');
  const [note, setNote] = useState('');
  const name = props.label ? ` (${props.label})` : '';
  if (state === 'saved') {
    return (
      <p role="status" className={styles.actions}>
        Saved. <Link href="/saved">See your saved passages</Link>
      </p>
    );
  }
  if (state === 'idle') {
    return (
      <Button icon={<Bookmark20Regular />} onClick={() => setState('note')} aria-label={`Save${name}`}>
        Save
      </Button>
    );
  }
  const submit = () => {
    void savePassage({ ...(props.anchor ? { anchor: props.anchor } : { passage: props.passage }), chapter: props.chapter, excerpt: props.excerpt, note: note.trim() }).then(() => setState('saved'));
  };
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Field label="Note (optional)" hint={`Up to ${MAX_SAVED_NOTE_LENGTH.toLocaleString('en')} characters`}>
        <Textarea value={note} maxLength={MAX_SAVED_NOTE_LENGTH} onChange={(_, data) => setNote(data.value)} />
      </Field>
      <div className={styles.actions}>
        <Button appearance="primary" type="submit">
          Save passage
        </Button>
        <Button onClick={() => setState('idle')}>Cancel</Button>
      </div>
    </form>
  );
}
