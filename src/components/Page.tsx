import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { MAIN_ID } from '../lib/constants.ts';
import { useDocumentTitle } from '../lib/hooks/use-document-title.ts';

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
    // Focused only by "Skip to content", never by Tab.
    outline: 'none',
  },
});

/**
 * The main landmark of every page but the landing hero, named `label`, which the window's title
 * names too. It is where "Skip to content" goes (`#main`); on a route change the app gives the
 * focus to the heading of the page at the new route, which `data-path` names
 * (src/app/FocusOnRouteChange.tsx).
 */
export function Page({ children, label }: { children: ReactNode; label?: string }) {
  useDocumentTitle(label, { general: true });
  const [path] = useLocation();
  return (
    <main id={MAIN_ID} tabIndex={-1} className={useStyles().page} aria-label={label} data-path={path}>
      {children}
    </main>
  );
}
