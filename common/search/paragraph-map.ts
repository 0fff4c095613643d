import type { Highlight, Mark } from '../../contract/api-schemas.ts';

/** How much of which paragraph a passage holds: its text's [at, at + (to - from)) is the paragraph's [from, to). */
export interface PassageParagraph {
  /** The paragraph's address (`ch4#p12`, as GET /api/book and the reader name it). */
  anchor: string;
  /** Where the paragraph's part begins in the passage's text. */
  at: number;
  /** The part's [from, to) in the paragraph's own text. */
  from: number;
  to: number;
}

/**
 * The paragraph an offset of a passage's text falls in, and the offset in that paragraph's text.
 * An offset between two parts (the blank line) belongs to the part after it.
 */
export function paragraphAt(paragraphs: readonly PassageParagraph[], offset: number): { anchor: string; offset: number } {
  let part = paragraphs[0]!;
  for (const p of paragraphs) if (p.at <= offset) part = p;
  const within = Math.min(Math.max(offset - part.at, 0), part.to - part.from);
  return { anchor: part.anchor, offset: part.from + within };
}

/** A passage's highlighted sentence (offsets in the passage's text) as the book marks it: its paragraph and offsets there. */
export function markOf(paragraphs: readonly PassageParagraph[], highlight: Highlight): Mark {
  const start = paragraphAt(paragraphs, highlight.start);
  // A sentence never crosses paragraphs; its end is clamped to the paragraph it starts in.
  const part = paragraphs.findLast((p) => p.anchor === start.anchor)!;
  const end = Math.min(start.offset + (highlight.end - highlight.start), part.to);
  return { anchor: start.anchor, start: start.offset, end };
}
