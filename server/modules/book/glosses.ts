import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Passage glosses: for each passage, a few lines in a modern reader's words saying what it
 * answers ("How to respond to people who deny the afterlife and dismiss hell as a scare tactic").
 * Written by reading each passage, never from the evaluation's questions. A gloss names the text
 * it was written for by its sha256, so it never attaches to a passage whose text has changed.
 */
export interface GlossFile {
  about: string;
  passages: Record<string, { text_sha256: string; lines: string[] }>;
}

export const GLOSSES_ABOUT =
  "Passage glosses: for each passage of the book's default chunking, a few lines in a modern reader's words saying what it answers, written by reading each passage of Claud Field's translation, never from evaluation questions, on 2026-11-27; public domain like the book. text_sha256 is the sha256 of the passage's text as chunked (UTF-8): a gloss attaches only to that text.";

/** The glosses shipped beside a book: `glosses.json` in its folder. */
export function glossFile(bookFile: string): string {
  return path.join(path.dirname(bookFile), 'glosses.json');
}

export function passageTextHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The glosses in `file`; none where there is no such file. A file that is there but malformed is an error. */
export async function loadGlosses(file: string): Promise<GlossFile | undefined> {
  let json: string;
  try {
    json = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(json) as GlossFile;
  const entries = Object.entries(parsed?.passages ?? {});
  const wellFormed =
    typeof parsed?.passages === 'object' &&
    entries.every(
      ([, g]) => typeof g?.text_sha256 === 'string' && Array.isArray(g.lines) && g.lines.every((line) => typeof line === 'string'),
    );
  if (!wellFormed) throw new Error(`${file} is not a gloss file: {"about", "passages": {"<id>": {"text_sha256", "lines": [...]}}}`);
  return parsed;
}

/**
 * Each passage's gloss, its lines one a line, or '' where it has none: no entry for its id, or
 * one written for another text.
 */
export function glossesFor(passages: Array<{ id: string; text: string }>, glosses: GlossFile | undefined): string[] {
  return passages.map((p) => {
    const gloss = glosses?.passages[p.id];
    return gloss && gloss.text_sha256 === passageTextHash(p.text) ? gloss.lines.join('\n') : '';
  });
}
