import { createHash } from 'node:crypto';
import { readJsonIfThere } from './data-file.ts';
import path from 'node:path';

/**
 * Glosses: for each paragraph of the book, a few lines in a modern reader's words saying what it
 * answers ("How to respond to people who deny the afterlife and dismiss hell as a scare tactic").
 * Written by reading the book, never from the evaluation's questions. Keyed by the paragraph's
 * address (`ch4#p12`, as the reader's), each names the text it was written for by its sha256, so
 * it never attaches to a paragraph whose text has changed; a passage's gloss is its paragraphs'
 * lines together, so a new cut of the book into passages keeps every gloss.
 */
export interface GlossFile {
  about: string;
  paragraphs: Record<string, { text_sha256: string; lines: string[] }>;
}

export const GLOSSES_ABOUT =
  "Paragraph glosses: for each paragraph of the book (its address as the reader's: ch4#p12), a few lines in a modern reader's words saying what it answers, written by reading Claud Field's translation, never from evaluation questions, on 2026-11-27; public domain like the book. text_sha256 is the sha256 of the paragraph's text as /api/book gives it (UTF-8: emphasis and footnote marks removed): a gloss attaches only to that text. A passage's gloss is the lines of the paragraphs it holds. Written per passage of the first chunking and moved on 2026-11-28 onto the first paragraph each of those passages held (corpus/passages-v1.json), every line kept; the paragraphs' texts are the proofread book's (corpus/corrections.tsv changed only scanning errors in them). On 2026-11-28 two more writers, who wrote no evaluation question and saw none, read every paragraph and added 3 to 6 lines each in today's words for the feelings and situations a reader brings to it (578 lines over 181 paragraphs): questions in a reader's own words, a plain summary, today's synonyms. Later on 2026-11-28 five more writers, who wrote no evaluation question and saw none, read each glossed passage and added 2 lines to it: concrete situations of a reader's daily life today, in the first person and everyday words (360 lines over 180 paragraphs).";

/** The glosses shipped beside a book: `glosses.json` in its folder. */
export function glossFile(bookFile: string): string {
  return path.join(path.dirname(bookFile), 'glosses.json');
}

export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The glosses in `file`; none where there is no such file. A file that is there but malformed is an error. */
export async function loadGlosses(file: string): Promise<GlossFile | undefined> {
  const parsed = (await readJsonIfThere(file)) as GlossFile | undefined;
  if (parsed === undefined) return undefined;
  const entries = Object.entries(parsed?.paragraphs ?? {});
  const wellFormed =
    typeof parsed?.paragraphs === 'object' &&
    entries.every(
      ([address, g]) =>
        /^[a-z0-9-]+#p\d+$/.test(address) && typeof g?.text_sha256 === 'string' && Array.isArray(g.lines) && g.lines.every((line) => typeof line === 'string'),
    );
  if (!wellFormed) throw new Error(`${file} is not a gloss file: {"about", "paragraphs": {"<part>#p<N>": {"text_sha256", "lines": [...]}}}`);
  return parsed;
}

/**
 * Each passage's lines from a file keyed by paragraph address: for each of its paragraphs whose
 * entry was written for that paragraph's text as it is (`text_sha256`), the lines `linesOf` takes
 * from the entry, each line once, one a line ('' where there are none).
 */
export function paragraphLines<E extends { text_sha256: string }, P extends { paragraphs: Array<{ anchor: string }> }>(
  passages: P[],
  paragraphText: (anchor: string) => string | undefined,
  entries: Record<string, E> | undefined,
  linesOf: (entry: E, passage: P) => string[],
): string[] {
  return passages.map((p) => {
    const lines = p.paragraphs.flatMap(({ anchor }) => {
      const entry = entries?.[anchor];
      const text = paragraphText(anchor);
      return entry && text !== undefined && entry.text_sha256 === textHash(text) ? linesOf(entry, p) : [];
    });
    return [...new Set(lines)].join('\n');
  });
}

/**
 * Each passage's gloss: the lines of its paragraphs (each line once), one a line, or '' where it
 * has none: no entry for any of its paragraphs, or only ones written for another text.
 */
export function glossesFor(
  passages: Array<{ paragraphs: Array<{ anchor: string }> }>,
  paragraphText: (anchor: string) => string | undefined,
  glosses: GlossFile | undefined,
): string[] {
  return paragraphLines(passages, paragraphText, glosses?.paragraphs, (gloss) => gloss.lines);
}
