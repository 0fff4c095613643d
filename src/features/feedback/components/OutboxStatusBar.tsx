import { count } from '../../../lib/count.ts';
import { Button, makeStyles, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, tokens } from '@fluentui/react-components';
import { reactionWords } from '../feedback-state.ts';
import { useOutboxStatus } from '../outbox-status.ts';
import { isSavedChange } from '../saved-change.ts';
import { dismissDeadLetter, flushOutbox } from '../flush-outbox.ts';

const useStyles = makeStyles({
  bar: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}` },
});

/** Votes waiting to be sent, and the ones the server refused, for the reader to see. */
export default function OutboxStatusBar() {
  const styles = useStyles();
  const { reader, pending, savedPending = 0, deadLetters } = useOutboxStatus();
  const votes = pending - savedPending;
  const what = [votes > 0 ? count(votes, 'vote', 'votes') : '', savedPending > 0 ? count(savedPending, 'change to your saved passages', 'changes to your saved passages') : '']
    .filter(Boolean)
    .join(' and ');
  // The counts' own reader, not the session's: the two differ for a moment after a sign-in.
  const signedIn = reader !== null;
  if (pending === 0 && deadLetters.length === 0) return null;
  return (
    <div className={styles.bar}>
      {pending > 0 && (
        <MessageBar intent="info" data-testid="outbox-pending">
          <MessageBarBody>
            {what} {pending === 1 ? 'is' : 'are'} waiting to be sent. {pending === 1 ? 'It' : 'They'} will go{' '}
            {signedIn
              ? 'as soon as the server can be reached.'
              : `when the reader who gave ${pending === 1 ? 'it' : 'them'} signs in again on this device.`}
          </MessageBarBody>
          {signedIn && (
            <MessageBarActions>
              <Button size="small" onClick={() => void flushOutbox({ now: true })}>
                Send now
              </Button>
            </MessageBarActions>
          )}
        </MessageBar>
      )}
      {deadLetters.map((letter) => (
        <MessageBar key={letter.key} intent="error" data-testid="outbox-dead-letter">
          <MessageBarBody>
            {isSavedChange(letter.item) ? (
              <>
                <MessageBarTitle>A change to your saved passages could not be kept</MessageBarTitle>
                {letter.reason}
              </>
            ) : (
              <>
                <MessageBarTitle>A vote could not be saved</MessageBarTitle>
                “{reactionWords(letter.item.reaction)}” for result {letter.item.result_label} of “{letter.item.query}”: {letter.reason}
              </>
            )}
          </MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={() => void dismissDeadLetter(letter.key)}>
              Dismiss
            </Button>
          </MessageBarActions>
        </MessageBar>
      ))}
    </div>
  );
}
