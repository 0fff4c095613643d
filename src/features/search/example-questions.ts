/**
 * Questions the book answers well, offered to a reader who does not know what to ask: on the
 * dashboard before a search, and on the landing page (through sign-in, straight to the answers).
 */
export const EXAMPLE_QUESTIONS = [
  'How can I stop worrying about what other people think of me?',
  'What is true happiness?',
  'How should a husband treat his wife?',
  'How can I come to know myself?',
] as const;

/** The search page asking `question` on arrival. */
export function searchAddress(question: string): string {
  return `/dashboard?${new URLSearchParams({ q: question }).toString()}`;
}

/** The question an address asks (`?q=`), trimmed; null when it asks none. */
export function questionInAddress(search: string): string | null {
  const question = new URLSearchParams(search).get('q')?.trim();
  return question ? question : null;
}
