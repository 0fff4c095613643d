import { makeStyles, tokens } from '@fluentui/react-components';

/**
 * The reader's page: paper and ink per tone (each pair at least 7:1, links and the marked
 * sentence at least 4.5:1), a measure of about 65 characters whatever the type size (it is set in
 * em), and the book's own serif.
 */
export const useReaderStyles = makeStyles({
  light: {
    '--reader-paper': '#ffffff',
    '--reader-ink': '#1f1f1f',
    '--reader-muted': '#595959',
    '--reader-link': '#0f548c',
    '--reader-mark': '#fff0a0',
    '--reader-rule': '#d6d6d6',
  },
  sepia: {
    '--reader-paper': '#f6eedc',
    '--reader-ink': '#3a2e1f',
    '--reader-muted': '#65533c',
    '--reader-link': '#7a3b08',
    '--reader-mark': '#f2cf72',
    '--reader-rule': '#d9c9a8',
  },
  dark: {
    '--reader-paper': '#1b1a18',
    '--reader-ink': '#e6e0d4',
    '--reader-muted': '#b3ab9b',
    '--reader-link': '#9ccbff',
    '--reader-mark': '#5a4700',
    '--reader-rule': '#3d3a35',
  },
  paper: {
    backgroundColor: 'var(--reader-paper)',
    color: 'var(--reader-ink)',
    borderRadius: tokens.borderRadiusLarge,
    padding: `${tokens.spacingVerticalXL} clamp(12px, 4vw, 48px)`,
    boxSizing: 'border-box',
    width: '100%',
    '& a': { color: 'var(--reader-link)' },
    '& a:focus-visible, & button:focus-visible': { outline: '2px solid var(--reader-link)', outlineOffset: '2px' },
  },
  column: {
    maxWidth: '29em',
    margin: '0 auto',
    fontFamily: 'Georgia, "Iowan Old Style", "Palatino Linotype", "Times New Roman", serif',
    lineHeight: 1.6,
    // The bar at the top of the window never covers a paragraph scrolled to.
    '& [id]': { scrollMarginTop: '5rem' },
  },
  partHeading: { fontSize: '1.6em', lineHeight: 1.25, fontWeight: 'normal', margin: '0.4em 0 0.8em' },
  sectionHeading: { fontSize: '1.2em', lineHeight: 1.3, fontWeight: 'normal', fontStyle: 'italic', margin: '1.6em 0 0.6em' },
  kicker: { fontSize: '0.8em', color: 'var(--reader-muted)', letterSpacing: '0.04em', margin: 0 },
  muted: { color: 'var(--reader-muted)' },
  rule: { border: 0, borderTop: '1px solid var(--reader-rule)', margin: '2em 0 1em' },
});
