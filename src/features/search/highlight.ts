/** A passage split around the sentence the server marked as the best match ("why this passage"). */
export interface HighlightParts {
  before: string;
  marked: string;
  after: string;
}

/** The parts, or null when there is no mark or it does not fit the text (then the text shows plain). */
export function highlightParts(text: string, highlight: { start: number; end: number } | undefined): HighlightParts | null {
  if (!highlight) return null;
  const { start, end } = highlight;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length || start >= end) return null;
  return { before: text.slice(0, start), marked: text.slice(start, end), after: text.slice(end) };
}
