import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

/** How long a route's page may take to load (its code comes on demand) before its heading is no longer waited for. */
const WAIT_FOR_HEADING_MS = 10_000;

/**
 * The main heading of the page at `path`, once it is on screen (a page still loading shows none).
 * The page before can still be on screen when the route changes: a link followed before the app
 * has taken that page over leaves its HTML in place until then.
 */
function visibleHeading(path: string): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>(`main[data-path="${CSS.escape(path)}"] h1`);
  if (!heading) return null;
  return typeof heading.checkVisibility === 'function' && !heading.checkVisibility() ? null : heading;
}

/**
 * On every route change (not the visit's first page, where Tab starts at the top of the document,
 * "Skip to content" first), the focus goes to the new page's main heading: a screen reader
 * announces the page, and Tab goes on from its top. The link that was followed is gone with its
 * page, or, in the navigation bar, would keep the focus where the reader no longer is.
 */
export function FocusOnRouteChange() {
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let frame = 0;
    const until = performance.now() + WAIT_FOR_HEADING_MS;
    const focusHeading = () => {
      const heading = visibleHeading(location);
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      } else if (performance.now() < until) {
        frame = requestAnimationFrame(focusHeading);
      }
    };
    focusHeading();
    return () => cancelAnimationFrame(frame);
  }, [location]);
  return null;
}
