import { readFile } from 'node:fs/promises';
import { chunkPassages, DEFAULT_SIZES } from './chunk-passages.ts';
import { parseBook, type ParsedBook } from './parse-book.ts';

/** A paragraph as the reader addresses it (notes/reader-contract: `<part>#p<N>`). */
export interface ParagraphAddress {
  anchor: string;
  /** The part's heading ("Chapter IV: The Knowledge of the Next World"). */
  heading: string;
  text: string;
}

/** The book's paragraphs by address, and each passage's first paragraph (a search result's id → its anchor). */
export interface ParagraphDirectory {
  paragraphs: Map<string, ParagraphAddress>;
  passageAnchors: Map<string, string>;
}

/**
 * Every paragraph's address: N counts a part's blocks from 1 across its `###` sections, headings
 * and Notes left out (the same count GET /api/book gives); and where each passage begins.
 */
export function paragraphDirectory(book: ParsedBook): ParagraphDirectory {
  const paragraphs = new Map<string, ParagraphAddress>();
  const order: ParagraphAddress[] = [];
  for (const chapter of book.chapters) {
    let n = 0;
    for (const section of chapter.sections) {
      for (const block of section.blocks) {
        const address = { anchor: `${chapter.slug}#p${++n}`, heading: chapter.heading, text: block.text };
        paragraphs.set(address.anchor, address);
        order.push(address);
      }
    }
  }
  const passageAnchors = new Map<string, string>();
  let at = 0;
  for (const passage of chunkPassages(book, DEFAULT_SIZES)) {
    const start = passage.text.slice(0, 60);
    const found = order.findIndex((p, i) => i >= at && p.text.includes(start));
    if (found === -1) continue;
    at = found;
    passageAnchors.set(passage.id, order[found]!.anchor);
  }
  return { paragraphs, passageAnchors };
}

export async function loadParagraphDirectory(file: string): Promise<ParagraphDirectory> {
  return paragraphDirectory(parseBook(await readFile(file, 'utf8')));
}
