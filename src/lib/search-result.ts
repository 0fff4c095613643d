import type { SearchResult as ApiSearchResult } from '../../contract/api-schemas.ts';
import type { ResultLabel } from '../../contract/vocabulary.ts';

export type { ResultLabel };

/**
 * A search result as received. Our server always sends every field of the contract; the spec
 * lets another server send `content` instead of `text`, so the client reads what is there.
 */
export type SearchResult = Partial<ApiSearchResult> & {
  content?: string;
  /** The reader's address of the paragraph the passage begins in (`ch4#p12`). */
  anchor?: string;
  /** The marked sentence, as offsets into its paragraph's text in /api/book. */
  mark?: { anchor: string; start: number; end: number };
};

export interface LabelledResult extends SearchResult {
  resultLabel: ResultLabel;
}

export function resultText(result: SearchResult): string {
  return result.text ?? result.content ?? '';
}

/**
 * Where "Read in context" opens a result in the reader: its marked sentence's paragraph
 * (`/read/ch4?mark=13:120-245#p13`), else the paragraph it begins in, else (a server without
 * the book's addresses) its passage id, which the reader takes on to the paragraph.
 */
export function readerHref(result: SearchResult): string | null {
  const marked = result.mark && /^([a-z0-9-]+)#p(\d+)$/.exec(result.mark.anchor);
  if (marked && result.mark) return `/read/${marked[1]}?mark=${marked[2]}:${result.mark.start}-${result.mark.end}#p${marked[2]}`;
  if (result.anchor && /^[a-z0-9-]+#p\d+$/.test(result.anchor)) return `/read/${result.anchor}`;
  return result.id ? `/read/${encodeURIComponent(result.id)}` : null;
}
