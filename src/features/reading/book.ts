/**
 * The book as the reader reads it: GET /api/book (the reader's contract, docs/app.md "The
 * reader"). A paragraph's address is `<part>#p<N>`, N counted from 1 across the part's sections.
 */

export type ParagraphKind = 'paragraph' | 'verse' | 'list';

export interface BookParagraph {
  n: number;
  /** The `###` heading it stands under, or null for the part's opening text. */
  section: string | null;
  kind: ParagraphKind;
  /** Plain text as printed (emphasis and footnote marks removed); verse keeps its line breaks. */
  text: string;
  /** Italic spans, as [start, end) offsets into `text`. */
  emphasis?: Array<[number, number]>;
  /** Footnote marks: each stands after the character at offset `at` (i.e. at `text.slice(0, at)`'s end). */
  notes: Array<{ label: string; at: number }>;
  /** The 1909 edition's page on which the paragraph begins, where known. */
  page: number | null;
  /** Pages that begin inside the paragraph, at an offset into `text`. */
  pages?: Array<{ page: number; at: number }>;
}

export interface BookPart {
  slug: string;
  heading: string;
  paragraphs: BookParagraph[];
  notes: Array<{ label: string; text: string }>;
}

export interface Book {
  title: string;
  edition: string;
  parts: BookPart[];
}
