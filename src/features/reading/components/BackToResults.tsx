import { Link } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';

/** This tab came to the reader from search results (kept for the tab: the results are kept while the app is open). */
const FROM_RESULTS = 'readerFromResults';

/** How many steps of history back the results are, as this page's history entry says; undefined when it does not say. */
function stepsToResults(): number | undefined {
  const state = (typeof history === 'undefined' ? null : history.state) as { fromResults?: unknown } | null;
  return typeof state?.fromResults === 'number' && state.fromResults >= 1 ? state.fromResults : undefined;
}

/** The history state for a page one step further from the results (chapter to chapter), or none. */
export function cameFromResults(): { fromResults: number } | undefined {
  const steps = stepsToResults();
  return steps === undefined ? undefined : { fromResults: steps + 1 };
}

function readFlag(): boolean {
  try {
    return sessionStorage.getItem(FROM_RESULTS) === '1';
  } catch {
    return false;
  }
}

/**
 * "Back to results", for a reader who came from them: back through history to the same results
 * (the browser restores that page as it was), or, where the history no longer says how far back
 * they are (a note followed, a reload), to the dashboard, which shows the last results again.
 */
export function ResultsLink() {
  const [, navigate] = useLocation();
  // Rendered once the app has taken the page over (it reads this tab's history and storage).
  const [shown] = useState(() => stepsToResults() !== undefined || readFlag());
  useEffect(() => {
    if (stepsToResults() === undefined) return;
    try {
      sessionStorage.setItem(FROM_RESULTS, '1');
    } catch {
      // Storage blocked: the link is shown for this page only.
    }
  }, []);
  if (!shown) return null;
  return (
    <Link
      href="/dashboard"
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
        event.preventDefault();
        const steps = stepsToResults();
        if (steps !== undefined) history.go(-steps);
        else navigate('/dashboard');
      }}
    >
      ← Back to results
    </Link>
  );
}
