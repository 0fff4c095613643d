import { useEffect } from 'react';

/** The title every page starts from (index.html's). */
export const APP_TITLE = 'The Alchemy of Happiness · Semantic Search';

/**
 * The window's title names the page (tabs and screen readers tell pages apart by it); the app's
 * own title again when it leaves. `general`: a page's own name, which gives way to a more precise
 * one set inside it (its effects run first when both appear at once).
 */
export function useDocumentTitle(title: string | undefined, options: { general?: boolean } = {}): void {
  const general = options.general ?? false;
  useEffect(() => {
    if (!title || (general && document.title !== APP_TITLE)) return;
    document.title = `${title} · The Alchemy of Happiness`;
    return () => {
      document.title = APP_TITLE;
    };
  }, [title, general]);
}
