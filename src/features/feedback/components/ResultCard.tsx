import { useEffect, useRef } from 'react';
import { Body1, Button, Caption1, Card, CardHeader, Link, makeStyles, MessageBar, MessageBarBody, Text, tokens } from '@fluentui/react-components';
import { canSubmit, thankYouMessage, type FeedbackState } from '../feedback-state.ts';
import { REACTIONS, type Reaction } from '../../../../contract/vocabulary.ts';
import { highlightParts } from '../../search/index.ts';
import { resultText, type LabelledResult } from '../../../lib/search-result.ts';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, height: '100%' },
  label: {
    display: 'inline-grid',
    placeItems: 'center',
    width: '2rem',
    height: '2rem',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontWeight: tokens.fontWeightBold,
  },
  passage: { overflowWrap: 'anywhere', whiteSpace: 'pre-line', fontFamily: 'Georgia, "Times New Roman", serif', lineHeight: tokens.lineHeightBase400 },
  // "Why this passage": a quiet tint, not italics; read by screen readers as emphasis. The tint
  // alone is too faint to find (1.2:1 against the card), so the sentence is underlined as well.
  highlight: {
    fontStyle: 'inherit',
    backgroundColor: tokens.colorBrandBackground2,
    color: 'inherit',
    textDecorationLine: 'underline',
    textDecorationColor: tokens.colorBrandStroke1,
    textDecorationThickness: '2px',
    textUnderlineOffset: '3px',
    borderRadius: tokens.borderRadiusSmall,
    boxDecorationBreak: 'clone',
    paddingInline: '2px',
  },
  reactions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginTop: 'auto' },
});

export function ResultCard(props: {
  result: LabelledResult;
  /** The passage both models chose: shown once, as A and B, and rated once for both. */
  shared?: boolean;
  feedback: FeedbackState;
  onReact: (result: LabelledResult, reaction: Reaction) => void;
}) {
  const styles = useStyles();
  const { result, feedback, shared = false } = props;
  const label = result.resultLabel;
  const mine = feedback.byLabel[label];
  const headingId = shared ? 'result-same' : `result-${label}`;
  // How the card's controls name it: "result A", or the one passage of both.
  const which = shared ? 'the passage both models chose' : `result ${label}`;
  // The pressed button goes (disabled while sending, then replaced by the message), and the focus
  // with it: a keyboard reader is given the message instead, to go on from there to result B.
  const focusWasHere = useRef(false);
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (mine.status !== 'success' && mine.status !== 'error') return;
    if (!focusWasHere.current) return;
    focusWasHere.current = false;
    const active = document.activeElement;
    if (!active || active === document.body) messageRef.current?.focus();
  }, [mine.status]);
  return (
    <Card className={styles.card} aria-labelledby={headingId} data-testid={headingId}>
      <CardHeader
        image={<span className={styles.label}>{shared ? 'AB' : label}</span>}
        header={
          <Text as="h3" weight="semibold" id={headingId}>
            {shared ? 'Results A and B' : `Result ${label}`}
          </Text>
        }
        description={
          <Caption1>
            {[result.chapter, result.section].filter(Boolean).join(' · ')}
            {result.id && (
              <>
                {' · '}
                <Link href={`/read/${result.id}`} target="_blank" rel="noopener" aria-label={`Read in context (${which})`}>
                  Read in context
                </Link>
              </>
            )}
          </Caption1>
        }
      />
      <Body1 as="p" className={styles.passage}>
        <PassageText text={resultText(result)} highlight={result.highlight} className={styles.highlight} />
      </Body1>
      {mine.status === 'success' ? (
        <MessageBar intent="success" role="status" ref={messageRef} tabIndex={-1}>
          <MessageBarBody>
            {thankYouMessage(mine.reaction)}
            {mine.queued && <div>Your vote is saved on this device and will be sent as soon as the server can be reached.</div>}
          </MessageBarBody>
        </MessageBar>
      ) : mine.status === 'error' ? (
        <MessageBar intent="error" role="alert" ref={messageRef} tabIndex={-1}>
          <MessageBarBody>{mine.message}</MessageBarBody>
        </MessageBar>
      ) : (
        <div className={styles.reactions} role="group" aria-label={`How helpful is ${which}?`}>
          {REACTIONS.map(({ reaction, label: meaning }) => (
            <Button
              key={reaction}
              disabled={!canSubmit(feedback, label)}
              onClick={(event) => {
                focusWasHere.current = document.activeElement === event.currentTarget;
                props.onReact(result, reaction);
              }}
              aria-label={`${meaning} (${which})`}
            >
              <span aria-hidden="true">{reaction}</span>&nbsp;{meaning}
            </Button>
          ))}
        </div>
      )}
    </Card>
  );
}

/** The passage, with the sentence that best matches the question marked. */
function PassageText(props: { text: string; highlight: LabelledResult['highlight']; className: string }) {
  const parts = highlightParts(props.text, props.highlight);
  if (!parts) return <>{props.text}</>;
  return (
    <>
      {parts.before}
      <em className={props.className} data-testid="best-sentence">
        {parts.marked}
      </em>
      {parts.after}
    </>
  );
}
