/**
 * GET /api/book's reply built from the corpus, in the shape of the reader's contract: the
 * build's pre-render reads the titles and openings of /read pages from it, and the tests use it
 * as the book the server serves. Paragraphs are counted as scripts/book-corrections.ts and the
 * server's parseBook count them (blank-line blocks, headings and `### Notes` left out), and each
 * text is parseBook's plain text (tests/client/book-json.test.ts holds the two together).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Book, BookParagraph, BookPart, ParagraphKind } from '../src/features/reading/book.ts';

export const BOOK_EDITION = 'Translated by Claud Field. London: John Murray, 1909 (Wisdom of the East).';

const FOOTNOTE_REF = /^\[\^([^\]]+)\]/;
const FOOTNOTE_DEF = /^\[\^([^\]]+)\]:\s*(.*)$/s;

/** A part's slug from its `##` heading: `ch4` for "Chapter IV: …", else the words joined by dashes. */
export function partSlug(heading: string): string {
  const roman = /^Chapter ([IVXL]+)\b/.exec(heading);
  if (roman) {
    const values: Record<string, number> = { I: 1, V: 5, X: 10, L: 50 };
    const digits = [...roman[1]!].map((c) => values[c]!);
    return `ch${digits.reduce((sum, v, i) => sum + (v < (digits[i + 1] ?? 0) ? -v : v), 0)}`;
  }
  return heading
    .replace(/[_*]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const isWord = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** A block's Markdown → its printed text, with its italic spans and footnote marks as offsets. */
export function inlineText(raw: string): { text: string; emphasis: Array<[number, number]>; notes: Array<{ label: string; at: number }> } {
  const source = raw.replace(/[ \t]+$/gm, '').trim();
  let text = '';
  const emphasis: Array<[number, number]> = [];
  const notes: Array<{ label: string; at: number }> = [];
  let open: number | null = null;
  for (let i = 0; i < source.length; i += 1) {
    const c = source[i]!;
    const ref = c === '[' ? FOOTNOTE_REF.exec(source.slice(i)) : null;
    if (ref) {
      notes.push({ label: ref[1]!, at: text.length });
      i += ref[0].length - 1;
    } else if (c === '\\' && /[[\]*_\\]/.test(source[i + 1] ?? '')) {
      text += source[i + 1];
      i += 1;
    } else if (c === '_' && open === null && !isWord(source[i - 1]) && source.indexOf('_', i + 2) !== -1) {
      open = text.length;
    } else if (c === '_' && open !== null && !isWord(source[i + 1])) {
      emphasis.push([open, text.length]);
      open = null;
    } else {
      text += c;
    }
  }
  return { text, emphasis, notes };
}

function kindOf(lines: string[]): ParagraphKind {
  if (lines.every((l) => /^(\d+\.|[-*])\s/.test(l))) return 'list';
  return lines.length > 1 ? 'verse' : 'paragraph';
}

/** `pages.tsv`: page → where it begins (`ch4#p12` and the words it begins with, or none at the paragraph's start). */
function pageStarts(tsv: string): Array<{ page: number; address: string; at: string }> {
  return tsv
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [page, address, at = ''] = line.split('\t');
      return { page: Number(page), address: address!, at };
    });
}

export function bookJson(markdown: string, pagesTsv: string): Book {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let title = '';
  const parts: BookPart[] = [];
  let part: BookPart | undefined;
  let section: string | null = null;
  let inNotes = false;
  let buffer: string[] = [];
  const flush = () => {
    if (buffer.length === 0 || !part) return void (buffer = []);
    const raw = buffer.join('\n');
    buffer = [];
    if (inNotes) {
      const def = FOOTNOTE_DEF.exec(raw);
      if (def) part.notes.push({ label: def[1]!, text: inlineText(def[2]!).text });
      return;
    }
    const { text, emphasis, notes } = inlineText(raw);
    if (!text) return;
    part.paragraphs.push({ n: part.paragraphs.length + 1, section, kind: kindOf(raw.split('\n')), text, emphasis, notes, page: null, pages: [] });
  };
  for (const line of lines) {
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const name = inlineText(heading[2]!).text;
      if (heading[1] === '#') title = name;
      else if (heading[1] === '##') {
        part = { slug: partSlug(heading[2]!.trim()), heading: name, paragraphs: [], notes: [] };
        parts.push(part);
        section = null;
        inNotes = false;
      } else {
        inNotes = /^notes$/i.test(name);
        if (!inNotes) section = name;
      }
    } else if (line.trim() === '') flush();
    else buffer.push(line);
  }
  flush();

  // Pages: each begins at its paragraph's start or at the words given; a paragraph's `page` is
  // the page it begins on (the last page begun before it, when none begins at its start).
  const starts = pageStarts(pagesTsv);
  const byAddress = new Map<string, BookParagraph>();
  for (const p of parts) for (const para of p.paragraphs) byAddress.set(`${p.slug}#p${para.n}`, para);
  for (const start of starts) {
    const para = byAddress.get(start.address);
    if (!para) continue;
    const at = start.at === '' ? 0 : para.text.indexOf(start.at);
    if (at <= 0) para.page = start.page;
    else para.pages!.push({ page: start.page, at });
  }
  let current: number | null = null;
  for (const p of parts) {
    for (const para of p.paragraphs) {
      if (para.page === null && current !== null) para.page = current;
      current = para.pages!.at(-1)?.page ?? para.page ?? current;
    }
  }
  return { title, edition: BOOK_EDITION, parts };
}

/** The corpus's book, as /api/book serves it. */
export function corpusBook(root = process.cwd()): Book {
  const read = (name: string) => readFileSync(path.join(root, 'corpus', name), 'utf8');
  return bookJson(read('alchemy-of-happiness.md'), read('pages.tsv'));
}
