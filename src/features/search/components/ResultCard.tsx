import { SaveButton } from '../../saved/index.ts';
import type { ReactNode } from 'react';
import { Body1, Caption1, Card, CardHeader, Link, makeStyles, Text, tokens } from '@fluentui/react-components';
import { highlightParts } from '../highlight.ts';
import { Link as RouterLink } from 'wouter';
import { readerHref, resultText, type LabelledResult, type ResultLabel } from '../../../lib/search-result.ts';

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
});

/** A passage a search found: its label, where it stands in the book, and its text; `children` below it (the votes). */
export function ResultCard(props: {
  result: LabelledResult;
  /** The passage both models chose: shown once, as A and B, and rated once for both. */
  shared?: boolean;
  children?: ReactNode;
}) {
  const styles = useStyles();
  const { result, shared = false } = props;
  const label = result.resultLabel;
  const headingId = shared ? 'result-same' : `result-${label}`;
  const readAt = readerHref(result);
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
            {readAt && (
              <>
                {' · '}
                {/* Same tab; the reader offers "Back to results" (the history state says how far back they are). */}
                <RouterLink href={readAt} state={{ fromResults: 1 }} asChild>
                  <Link aria-label={`Read in context (${whichResult(label, shared)})`}>Read in context</Link>
                </RouterLink>
              </>
            )}
          </Caption1>
        }
      />
      <Body1 as="p" className={styles.passage}>
        <PassageText text={resultText(result)} highlight={result.highlight} className={styles.highlight} />
      </Body1>
      {result.id && (
        <div>
          <SaveButton {...(result.anchor ? { anchor: result.anchor } : { passage: result.id })} chapter={result.chapter ?? ''} excerpt={resultText(result).slice(0, 240)} label={whichResult(label, shared)} />
        </div>
      )}
      {props.children}
    </Card>
  );
}

/** How a card's controls name it: "result A", or the one passage of both. */
export function whichResult(label: ResultLabel, shared: boolean): string {
  return shared ? 'the passage both models chose' : `result ${label}`;
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
