import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../../platform/util/package-root.ts';

/** Where the thesaurus's table ships: read from the package's root, so from the sources and the build alike. */
export const READER_THESAURUS_FILE = path.join(packageRoot(import.meta.dirname), 'server/modules/search/fit/data/reader-thesaurus.tsv');

/**
 * The reader's thesaurus: words a reader of today types, each with the words the book uses for the
 * same idea ("afterlife" → hereafter, next world; "mindfulness" → recollection, contemplation;
 * "journaling" → reckoning, account). Written by reading the book, each half twice (ideas and
 * names first; then everyday words, feelings, plain words for the book's learned ones, and the
 * parables as a reader half remembering them would name them), never from the evaluation
 * questions or from any model's output; every book word in it occurs in the book's passages.
 * WordNet knows a spouse is a wife; it does not know that the book's "next world" is a reader's
 * afterlife. A query word counts for the book's words of its entry (`glossary` in lineup.ts: 0.7
 * for a word the book uses itself, in full for one it never uses).
 *
 * The table is data, data/reader-thesaurus.tsv: one entry a line, the reader's word, a tab, the
 * book's words separated by spaces, all lower case, read as this module loads.
 */
export const READER_THESAURUS = readFileSync(READER_THESAURUS_FILE, 'utf8');

/**
 * The thesaurus's entries: a reader's word and the book's words it stands for. Blank lines are
 * skipped; a line that is not a word, a tab and words is refused with its number, never dropped.
 */
export function parseThesaurus(text: string): Array<[string, string[]]> {
  const entries: Array<[string, string[]]> = [];
  for (const [at, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const [word, bookWords, extra] = line.split('\t');
    if (!word?.trim() || !bookWords?.trim() || extra !== undefined) {
      throw new Error(`thesaurus line ${at + 1} is not a word, a tab and the book's words: "${line}"`);
    }
    entries.push([word.trim(), bookWords.trim().split(/\s+/)]);
  }
  return entries;
}

const THESAURUS_HASH = createHash('sha256').update(READER_THESAURUS).digest('hex').slice(0, 8);

/** What a model's version says of its thesaurus: its weight and its text's hash (empty without one). */
export function glossaryVersion(weight: number): string {
  return weight > 0 ? `:thesaurus-${weight}-${THESAURUS_HASH}` : '';
}
