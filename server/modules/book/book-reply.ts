import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BookParagraph, BookReply } from '../../../contract/api-schemas.ts';
import { parseBook, plainText, type ParsedBook } from './parse-book.ts';

/** The edition the book's text is (corpus/SOURCE.md). */
export const EDITION = 'Translated by Claud Field. London: John Murray, 1909 (Wisdom of the East).';

/** Where a printed page begins: its paragraph, and the words it begins with there (Markdown; none: the paragraph's start). */
export interface PageStart {
  page: number;
  location: string;
  at: string;
}

/** The rows of corpus/pages.tsv (page, location, at). */
export function parsePages(tsv: string): PageStart[] {
  const lines = tsv.replace(/\r\n?/g, '\n').split('\n').filter((line) => line.trim() !== '');
  if (lines[0]?.split('\t').join('|') !== 'page|location|at') throw new Error('the pages file must begin with the header: page TAB location TAB at');
  return lines.slice(1).map((line, i) => {
    const [page, location, at = ''] = line.split('\t');
    if (!/^\d+$/.test(page ?? '') || !/^[a-z0-9-]+#p\d+$/.test(location ?? '')) throw new Error(`pages line ${i + 2} is not "page TAB paragraph TAB words"`);
    return { page: Number(page), location: location!, at };
  });
}

/** Every paragraph of the book in order, with its address and section. */
export function paragraphsOf(book: ParsedBook): Array<BookParagraph & { anchor: string; part: string }> {
  return book.chapters.flatMap((chapter) =>
    chapter.sections.flatMap((section) =>
      section.blocks.map((block) => ({
        anchor: block.anchor,
        part: chapter.slug,
        n: Number(block.anchor.slice(block.anchor.indexOf('#p') + 2)),
        section: section.heading,
        kind: block.kind,
        text: block.text,
        emphasis: block.emphasis,
        notes: block.marks,
        page: null,
        pages: [],
      })),
    ),
  );
}

/**
 * The book as GET /api/book gives it: its parts, each paragraph with its address, text, italics,
 * footnote marks and the 1909 pages (a paragraph's `page` the one it begins on, `pages` those
 * beginning inside it), and each part's notes. A page whose place cannot be found is an error.
 */
export function bookReply(book: ParsedBook, pages: PageStart[]): BookReply {
  const paragraphs = paragraphsOf(book);
  const order = new Map(paragraphs.map((p, i) => [p.anchor, i]));
  const starts = pages.map(({ page, location, at }) => {
    const i = order.get(location);
    if (i === undefined) throw new Error(`p. ${page}: no paragraph ${location}`);
    const text = paragraphs[i]!.text;
    const words = plainText(at).trim();
    const offset = words ? text.indexOf(words) : 0;
    if (offset === -1 || (words && text.indexOf(words, offset + 1) !== -1)) throw new Error(`p. ${page}: "${at}" does not stand once in ${location}`);
    return { page, i, offset };
  });
  let current: number | null = null;
  let s = 0;
  for (const [i, p] of paragraphs.entries()) {
    while (s < starts.length && starts[s]!.i === i && starts[s]!.offset === 0) current = starts[s++]!.page;
    p.page = current;
    while (s < starts.length && starts[s]!.i === i) {
      p.pages.push({ page: starts[s]!.page, at: starts[s]!.offset });
      current = starts[s++]!.page;
    }
  }
  if (s < starts.length) throw new Error(`p. ${starts[s]!.page} is out of order`);
  return {
    title: book.title,
    edition: EDITION,
    parts: book.chapters.map((chapter) => {
      const own = paragraphs.filter((p) => p.part === chapter.slug);
      const labels = [...new Set(own.flatMap((p) => p.notes.map((m) => m.label)))];
      return {
        slug: chapter.slug,
        heading: chapter.heading,
        paragraphs: own.map(({ n, section, kind, text, emphasis, notes, page, pages: inside }) => ({ n, section, kind, text, emphasis, notes, page, pages: inside })),
        notes: labels.map((label) => ({ label, text: book.footnotes.get(label) ?? '' })),
      };
    }),
  };
}

/** The pages file shipped beside a book: `pages.tsv` in its folder (none: every paragraph's page is null). */
export function pagesFile(bookFile: string): string {
  return path.join(path.dirname(bookFile), 'pages.tsv');
}

/** The book in `file` as GET /api/book gives it, with the pages beside it where there are. */
export async function loadBookReply(file: string): Promise<BookReply> {
  const book = parseBook(await readFile(file, 'utf8'));
  let pages: PageStart[] = [];
  try {
    pages = parsePages(await readFile(pagesFile(file), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return bookReply(book, pages);
}

/** Every paragraph of the book in `file`: its address and text. */
export async function bookParagraphs(file: string): Promise<Array<{ anchor: string; text: string }>> {
  return paragraphsOf(parseBook(await readFile(file, 'utf8'))).map(({ anchor, text }) => ({ anchor, text }));
}
