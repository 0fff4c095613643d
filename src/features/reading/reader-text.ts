import type { Book, BookParagraph, BookPart } from './book.ts';

/** The sentence a search result marks: paragraph `n`'s text from `start` to `end`. */
export interface Mark {
  n: number;
  start: number;
  end: number;
}

/** `?mark=13:120-245` → paragraph 13, characters 120 to 245; anything else → null. */
export function parseMark(value: string | null | undefined): Mark | null {
  const m = /^(\d{1,4}):(\d{1,6})-(\d{1,6})$/.exec(value ?? '');
  if (!m) return null;
  const [n, start, end] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return n >= 1 && end > start ? { n, start, end } : null;
}

/** `#p12` → 12; anything else → null. */
export function paragraphOfHash(hash: string): number | null {
  const m = /^#p(\d{1,4})$/.exec(hash);
  return m ? Number(m[1]) : null;
}

/** A run of a paragraph's text as printed: italic or not, marked or not; or a footnote's mark; or where a page begins. */
export type Piece =
  | { kind: 'text'; text: string; italic: boolean; marked: boolean }
  | { kind: 'note'; label: string; number: number }
  | { kind: 'page'; page: number };

/**
 * A paragraph cut where anything changes: an italic span, the marked sentence, a footnote's
 * mark, a page's beginning. `noteNumber` numbers a footnote label as the chapter's notes do.
 */
export function pieces(paragraph: BookParagraph, noteNumber: (label: string) => number, mark?: { start: number; end: number } | null): Piece[] {
  const { text } = paragraph;
  const emphasis = paragraph.emphasis ?? [];
  const marked = mark ? { start: Math.max(0, mark.start), end: Math.min(text.length, mark.end) } : null;
  const inserts = [
    ...paragraph.notes.map((n) => ({ at: n.at, piece: { kind: 'note', label: n.label, number: noteNumber(n.label) } as Piece, order: 1 })),
    ...(paragraph.pages ?? []).map((p) => ({ at: p.at, piece: { kind: 'page', page: p.page } as Piece, order: 0 })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  const cuts = new Set<number>([0, text.length, ...inserts.map((i) => i.at), ...emphasis.flat()]);
  if (marked) cuts.add(marked.start).add(marked.end);
  const points = [...cuts].filter((c) => c >= 0 && c <= text.length).sort((a, b) => a - b);
  const out: Piece[] = [];
  let next = 0;
  for (const [i, from] of points.entries()) {
    while (next < inserts.length && inserts[next]!.at <= from) out.push(inserts[next++]!.piece);
    const to = points[i + 1];
    if (to === undefined || to === from) continue;
    const italic = emphasis.some(([s, e]) => s <= from && to <= e);
    const inMark = marked !== null && marked.start <= from && to <= marked.end;
    const last = out.at(-1);
    // Pieces alike are one run (a cut made by something that changed nothing here).
    if (last?.kind === 'text' && last.italic === italic && last.marked === inMark) last.text += text.slice(from, to);
    else out.push({ kind: 'text', text: text.slice(from, to), italic, marked: inMark });
  }
  while (next < inserts.length) out.push(inserts[next++]!.piece);
  return out;
}

const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

/** A part's name from its slug alone: "Chapter IV" for ch4, "Editorial note" for editorial-note. */
export function partNameOfSlug(slug: string): string {
  const chapter = /^ch(\d+)$/.exec(slug);
  if (chapter) return `Chapter ${ROMAN[Number(chapter[1])] ?? chapter[1]}`;
  return slug.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** How a citation names a part: "ch. IV", or its heading ("Preface"). */
export function partCitation(part: BookPart): string {
  const chapter = /^ch(\d+)$/.exec(part.slug);
  return chapter ? `ch. ${ROMAN[Number(chapter[1])] ?? chapter[1]}` : part.heading;
}

/** The part's short title for the table of contents and the chapter's neighbours: "Chapter IV", "Preface". */
export function partShortName(part: BookPart): string {
  return part.heading.split(':')[0]!.trim();
}

/** The 1909 pages a paragraph stands on: "p. 63", "pp. 63–64", or "" where unknown. */
export function pagesOf(paragraph: BookParagraph): string {
  const first = paragraph.page;
  const last = paragraph.pages?.at(-1)?.page ?? first;
  if (first === null) return last === null ? '' : `p. ${last}`;
  return last !== null && last !== first ? `pp. ${first}–${last}` : `p. ${first}`;
}

/** A paragraph's address, as a path: /read/ch4#p12. */
export const paragraphPath = (part: BookPart, n: number) => `/read/${part.slug}#p${n}`;

/**
 * The paragraph's text followed by its citation, to paste: "— al-Ghazzali, The Alchemy of
 * Happiness, tr. Claud Field (London: John Murray, 1909), ch. IV, ¶12, p. 63. <origin/read/ch4#p12>".
 */
export function citation(book: Book, part: BookPart, paragraph: BookParagraph, origin: string): string {
  const where = [partCitation(part), `¶${paragraph.n}`, pagesOf(paragraph)].filter(Boolean).join(', ');
  return `${paragraph.text}\n\n— al-Ghazzali, ${book.title}, tr. Claud Field (London: John Murray, 1909), ${where}. <${origin}${paragraphPath(part, paragraph.n)}>`;
}

/** The part before and after `slug` in the book's order. */
export function neighbours(book: Book, slug: string): { previous: BookPart | null; next: BookPart | null } {
  const i = book.parts.findIndex((p) => p.slug === slug);
  return { previous: book.parts[i - 1] ?? null, next: i === -1 ? null : (book.parts[i + 1] ?? null) };
}

/** A part's sections in order, each with the paragraph it begins at (the opening text, with no heading, left out). */
export function sectionsOf(part: BookPart): Array<{ heading: string; n: number }> {
  const out: Array<{ heading: string; n: number }> = [];
  for (const p of part.paragraphs) if (p.section && p.section !== out.at(-1)?.heading) out.push({ heading: p.section, n: p.n });
  return out;
}

/** A few words of what a page holds, for its link preview (meta description): whole words, at most `max` characters. */
export function openingWords(text: string, max = 155): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[,;:.—-]+$/u, '')}…`;
}
