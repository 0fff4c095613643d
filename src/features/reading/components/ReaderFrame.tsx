import { Button, makeStyles, mergeClasses, ToggleButton, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useEarlyAction } from '../../../lib/early-input.ts';
import { useHydrated } from '../../../lib/hooks/use-hydrated.ts';
import { useTheme } from '../../../lib/theme/theme-store.ts';
import { DEFAULT_SIZE, FONT_SIZES, TONES, useReaderSettings, type Tone } from '../reader-settings.ts';
import { useReaderStyles } from './reader-styles.ts';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  way: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  settings: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  group: { display: 'flex', gap: tokens.spacingHorizontalXS },
  // Read by screen readers, not shown.
  unseen: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' },
});

/** The page's paper as chosen on this device, else as the app's theme (light or dark). */
export function useTone(): Tone {
  const chosen = useReaderSettings((s) => s.tone);
  const theme = useTheme((s) => s.themeMode);
  // A pre-rendered page is taken over as it was rendered (the app's theme); the device's choice follows.
  return (useHydrated() ? chosen : null) ?? theme;
}

/**
 * The reader's frame: a bar with the way back (`way`) and the page's settings (type size and
 * paper, kept on this device), then the paper the text is set on.
 */
export function ReaderFrame({ way, children }: { way: ReactNode; children: ReactNode }) {
  const styles = useStyles();
  const reader = useReaderStyles();
  const tone = useTone();
  const chosenSize = useReaderSettings((s) => s.size);
  const size = useHydrated() ? chosenSize : DEFAULT_SIZE;
  const { setTone, resize } = useReaderSettings.getState();
  // Pressed before the app has taken a pre-rendered page over, they act once it has.
  useEarlyAction('reader-smaller', () => resize(-1));
  useEarlyAction('reader-larger', () => resize(1));
  useEarlyAction('reader-light', () => setTone('light'));
  useEarlyAction('reader-sepia', () => setTone('sepia'));
  useEarlyAction('reader-dark', () => setTone('dark'));
  return (
    <>
      <div className={styles.bar}>
        <nav className={styles.way} aria-label="Reading">
          {way}
        </nav>
        <div className={styles.settings} role="group" aria-label="Page settings">
          <div className={styles.group} role="group" aria-label="Text size">
            <Button size="small" onClick={() => resize(-1)} disabled={size === 0} title="Smaller text" data-early-action="reader-smaller">
              <span aria-hidden="true">A−</span>
              <span className={styles.unseen}>Smaller text</span>
            </Button>
            <Button size="small" onClick={() => resize(1)} disabled={size === FONT_SIZES.length - 1} title="Larger text" data-early-action="reader-larger">
              <span aria-hidden="true">A+</span>
              <span className={styles.unseen}>Larger text</span>
            </Button>
          </div>
          <div className={styles.group} role="group" aria-label="Page colour">
            {TONES.map((t) => (
              <ToggleButton key={t.tone} size="small" checked={tone === t.tone} onClick={() => setTone(t.tone)} data-early-action={`reader-${t.tone}`}>
                {t.label}
              </ToggleButton>
            ))}
          </div>
        </div>
      </div>
      <div className={mergeClasses(reader.paper, reader[tone])} style={{ fontSize: `${FONT_SIZES[size]}px` }} data-tone={tone} data-testid="reader-paper">
        {children}
      </div>
    </>
  );
}
