import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  page: {
    width: '100%',
    maxWidth: '960px',
    margin: '0 auto',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    boxSizing: 'border-box',
    // At least a screen tall, like the loading state before it: the footer never jumps into view.
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
});

/** The main landmark of every page but the landing hero. */
export function Page({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <main className={useStyles().page} aria-label={label}>
      {children}
    </main>
  );
}
