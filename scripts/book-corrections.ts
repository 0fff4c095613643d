/**
 * The proofreading of the 2001 scan, as data: `corpus/corrections.tsv` lists every change made to
 * `corpus/source/alchemy-of-happiness.md` (the scan as received), and applying it gives the book
 * the app reads, `corpus/alchemy-of-happiness.md`. Each row names its paragraph by the reader's
 * address (`ch4#p12`: the 12th paragraph of Chapter IV, counted across its sub-sections, headings
 * and notes left out; `ch1#note-ch1-1` for a footnote), the text before and after, and why.
 */

export interface Correction {
  /** `<part>#p<N>` or `<part>#note-<label>`. */
  location: string;
  before: string;
  after: string;
  why: string;
  /** The TSV's line number, for messages. */
  line: number;
}

export const CORRECTIONS_HEADER = ['location', 'before', 'after', 'why'];

/** The rows of a corrections TSV; a malformed row is an error naming its line. */
export function parseCorrections(tsv: string): Correction[] {
  const lines = tsv.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0]!.split('\t').join('|') !== CORRECTIONS_HEADER.join('|')) {
    throw new Error(`the first line must be the header: ${CORRECTIONS_HEADER.join(' TAB ')}`);
  }
  const rows: Correction[] = [];
  lines.slice(1).forEach((text, i) => {
    if (text.trim() === '') return;
    const fields = text.split('\t');
    const line = i + 2;
    if (fields.length !== 4) throw new Error(`line ${line}: ${fields.length} fields, not 4`);
    const [location, before, after, why] = fields as [string, string, string, string];
    if (!/^[a-z0-9-]+#(p\d+|note-[\w-]+)$/.test(location)) throw new Error(`line ${line}: "${location}" is not a paragraph's address`);
    if (before === '' || before === after) throw new Error(`line ${line}: nothing to change`);
    if (why.trim() === '') throw new Error(`line ${line}: no reason given`);
    rows.push({ location, before, after, why, line });
  });
  return rows;
}

/** A part's slug from its `##` heading, as the book's parser names it (`ch4`, `preface`). */
function partSlug(heading: string): string {
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

/** Where each paragraph of the Markdown stands: its address → [first line, last line] (0-based, inclusive). */
export function paragraphLines(markdown: string): Map<string, [number, number]> {
  const lines = markdown.split('\n');
  const found = new Map<string, [number, number]>();
  let part: string | null = null;
  let ordinal = 0;
  let inNotes = false;
  let start = -1;
  const close = (end: number) => {
    if (start === -1) return;
    if (part) {
      if (inNotes) {
        const label = /^\[\^([^\]]+)\]:/.exec(lines[start]!)?.[1];
        if (label) found.set(`${part}#note-${label}`, [start, end]);
      } else {
        ordinal += 1;
        found.set(`${part}#p${ordinal}`, [start, end]);
      }
    }
    start = -1;
  };
  lines.forEach((line, i) => {
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      close(i - 1);
      if (heading[1] === '##') {
        part = partSlug(heading[2]!.trim());
        ordinal = 0;
        inNotes = false;
      } else if (heading[1] === '###') {
        inNotes = /^notes$/i.test(heading[2]!.trim());
      }
    } else if (line.trim() === '') {
      close(i - 1);
    } else if (start === -1) {
      start = i;
    }
  });
  close(lines.length - 1);
  return found;
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

/**
 * The source with every correction made. Each `before` must stand exactly once in its paragraph
 * (so a row can never change the wrong words), and rows of one paragraph apply in order.
 */
export function applyCorrections(source: string, corrections: Correction[]): string {
  const normalised = source.replace(/\r\n?/g, '\n');
  const where = paragraphLines(normalised);
  const lines = normalised.split('\n');
  const paragraphs = new Map<string, string>();
  for (const row of corrections) {
    const span = where.get(row.location);
    if (!span) throw new Error(`line ${row.line}: no paragraph ${row.location}`);
    const text = paragraphs.get(row.location) ?? lines.slice(span[0], span[1] + 1).join('\n');
    const count = occurrences(text, row.before);
    if (count !== 1) throw new Error(`line ${row.line}: "${row.before}" stands ${count} times in ${row.location}, not once`);
    paragraphs.set(row.location, text.replace(row.before, () => row.after));
  }
  // Replace from the end so that earlier line numbers stay true.
  const edits = [...paragraphs].map(([location, text]) => ({ span: where.get(location)!, text })).sort((a, b) => b.span[0] - a.span[0]);
  for (const { span, text } of edits) lines.splice(span[0], span[1] - span[0] + 1, ...text.split('\n'));
  return lines.join('\n');
}
