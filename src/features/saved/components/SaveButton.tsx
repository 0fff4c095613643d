import { useState } from 'react';
import { Button, Link, makeStyles, tokens } from '@fluentui/react-components';
import { Bookmark20Regular } from '@fluentui/react-icons';
import { savePassage } from '../saved-store.ts';
import { NoteForm } from './NoteForm.tsx';

const useStyles = makeStyles({
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
  return (
    <NoteForm
      label="Note (optional)"
      submitLabel="Save passage"
      onSubmit={(note) =>
        void savePassage({ ...(props.anchor ? { anchor: props.anchor } : { passage: props.passage }), chapter: props.chapter, excerpt: props.excerpt, note }).then(() =>
          setState('saved'),
        )
      }
      onCancel={() => setState('idle')}
    />
  );
}
