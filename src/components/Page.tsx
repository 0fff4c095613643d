import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useRef, type ReactNode } from 'react';
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
    // Focused only by the app (after a link that took the reader here), never by Tab.
    outline: 'none',
  },
});

/**
 * The main landmark of every page but the landing hero, named `label`, which the window's title
 * names too. A page opened by a link (not the visit's first) the reader followed takes the focus that link had (it is
 * gone with the page it was on), so a screen reader announces the new page and Tab goes on from
 * its top; a page that put the focus somewhere itself keeps it there.
 */
/** The first page of a visit keeps the browser's focus: Tab starts at the top of the document, skip link and all. */
let openedByNavigation = false;

export function Page({ children, label }: { children: ReactNode; label?: string }) {
  const main = useRef<HTMLElement>(null);
  useDocumentTitle(label, { general: true });
  useEffect(() => {
    const lost = document.activeElement === document.body || document.activeElement === null;
    if (openedByNavigation && lost) main.current?.focus({ preventScroll: true });
    openedByNavigation = true;
  }, []);
  return (
    <main ref={main} tabIndex={-1} className={useStyles().page} aria-label={label}>
      {children}
    </main>
  );
}
