import { useEffect } from 'react';
import { useLocation } from 'wouter';

/**
 * Every route change starts at the top of the page, but for an address that names a place in it
 * (`/read/ch4#p12`): the page scrolls there itself, and this must not undo it.
 */
export function ScrollToTop() {
  const [location] = useLocation();
  useEffect(() => {
    if (window.location.hash) return;
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
