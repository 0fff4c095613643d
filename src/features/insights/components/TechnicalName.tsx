import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  details: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  summary: {
    cursor: 'pointer',
    width: 'fit-content',
    borderRadius: tokens.borderRadiusSmall,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  // A technical id is one long word: it wraps anywhere rather than widen a phone's page.
  code: { display: 'block', marginTop: tokens.spacingVerticalXS, overflowWrap: 'anywhere', fontFamily: tokens.fontFamilyMonospace },
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '-1px',
    padding: 0,
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
    border: 0,
  },
});

/** Text for screen readers only. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span className={useStyles().hidden}>{children}</span>;
}

/**
 * A method's technical id, on demand: a native disclosure (keyboard and screen reader work as the
 * browser's own, even before the app has loaded), closed until the reader asks.
 */
export function TechnicalName({ model, name }: { model: string; name: string }) {
  const styles = useStyles();
  return (
    <details className={styles.details}>
      <summary className={styles.summary}>
        Technical name<VisuallyHidden>{` of “${name}”`}</VisuallyHidden>
      </summary>
      <Caption1 as="span" className={styles.code} dir="auto">
        {model}
      </Caption1>
    </details>
  );
}
