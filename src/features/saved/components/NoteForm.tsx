import { useState } from 'react';
import { Button, Field, makeStyles, Textarea, tokens } from '@fluentui/react-components';
import { MAX_SAVED_NOTE_LENGTH } from '../../../../contract/vocabulary.ts';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '40rem' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
});

/** A saved passage's note being written: the field, its limit, and submit or Cancel. The note is given trimmed. */
export function NoteForm(props: { label: string; submitLabel: string; initial?: string; onSubmit: (note: string) => void; onCancel: () => void }) {
  const styles = useStyles();
  const [note, setNote] = useState(props.initial ?? '');
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit(note.trim());
      }}
    >
      <Field label={props.label} hint={`Up to ${MAX_SAVED_NOTE_LENGTH.toLocaleString('en')} characters`}>
        <Textarea value={note} maxLength={MAX_SAVED_NOTE_LENGTH} onChange={(_, data) => setNote(data.value)} />
      </Field>
      <div className={styles.actions}>
        <Button appearance="primary" type="submit">
          {props.submitLabel}
        </Button>
        <Button onClick={props.onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
