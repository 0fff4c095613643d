import { useEffect, useRef } from 'react';
import { Button, makeStyles, MessageBar, MessageBarBody, tokens } from '@fluentui/react-components';
import { EmojiMehRegular, ThumbDislikeRegular, ThumbLikeRegular } from '@fluentui/react-icons';
import type { FluentIcon } from '@fluentui/react-icons';
import { REACTIONS, type Reaction } from '../../../../contract/vocabulary.ts';
import { canSubmit, thankYouMessage, type FeedbackState } from '../feedback-state.ts';
import type { LabelledResult } from '../../../lib/search-result.ts';

const useStyles = makeStyles({
  reactions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginTop: 'auto' },
});

/**
 * Each reaction's icon. The stored value stays the emoji (contract/vocabulary.ts); on screen it is
 * an icon and its words, as an emoji is an empty box on a device without an emoji font.
 */
const ICONS: Record<Reaction, FluentIcon> = { '👍': ThumbLikeRegular, '🤷': EmojiMehRegular, '👎': ThumbDislikeRegular };

/**
 * A result's reaction buttons, then the message of how its vote went. The pressed button goes
 * (disabled while sending, then replaced by the message), and the focus with it: a keyboard
 * reader is given the message instead, to go on from there to result B.
 */
export function VotePanel(props: {
  result: LabelledResult;
  /** How the buttons name the result: "result A", or the one passage of both. */
  which: string;
  feedback: FeedbackState;
  onReact: (result: LabelledResult, reaction: Reaction) => void;
}) {
  const styles = useStyles();
  const { result, feedback, which } = props;
  const label = result.resultLabel;
  const mine = feedback.byLabel[label];
  const focusWasHere = useRef(false);
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (mine.status !== 'success' && mine.status !== 'error') return;
    if (!focusWasHere.current) return;
    focusWasHere.current = false;
    const active = document.activeElement;
    if (!active || active === document.body) messageRef.current?.focus();
  }, [mine.status]);
  if (mine.status === 'success') {
    return (
      <MessageBar intent="success" role="status" ref={messageRef} tabIndex={-1}>
        <MessageBarBody>
          {thankYouMessage(mine.reaction)}
          {mine.queued && <div>Your vote is saved on this device and will be sent as soon as the server can be reached.</div>}
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (mine.status === 'error') {
    return (
      <MessageBar intent="error" role="alert" ref={messageRef} tabIndex={-1}>
        <MessageBarBody>{mine.message}</MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <div className={styles.reactions} role="group" aria-label={`How helpful is ${which}?`}>
      {REACTIONS.map(({ reaction, label: meaning }) => {
        const Icon = ICONS[reaction];
        return (
          <Button
            key={reaction}
            icon={<Icon />}
            disabled={!canSubmit(feedback, label)}
            onClick={(event) => {
              focusWasHere.current = document.activeElement === event.currentTarget;
              props.onReact(result, reaction);
            }}
            aria-label={`${meaning} (${which})`}
          >
            {meaning}
          </Button>
        );
      })}
    </div>
  );
}
