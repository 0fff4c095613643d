import type { Lexicon } from './lexicon.ts';
import { contentWords, remembered, terms } from './text.ts';

const PREFIX = 5;

/**
 * A fixed vocabulary of stems. A query word the book never uses falls back to the book's stems
 * that share all but its last two letters (at least five): "patience" (patienc) finds
 * "patient"; "knowledge" does not become "known".
 */
export class Vocabulary {
  private readonly byPrefix = new Map<string, string[]>();

  constructor(readonly ids: Map<string, number>) {
    for (const term of ids.keys()) {
      if (term.length < PREFIX) continue;
      const key = term.slice(0, PREFIX);
      const list = this.byPrefix.get(key);
      if (list) list.push(term);
      else this.byPrefix.set(key, [term]);
    }
  }

  get size(): number {
    return this.ids.size;
  }

  /** Ids a term stands for: itself when known, else its near relatives (possibly none). */
  resolve(term: string): number[] {
    const id = this.ids.get(term);
    if (id !== undefined) return [id];
    if (term.length < PREFIX) return [];
    return (this.byPrefix.get(term.slice(0, PREFIX)) ?? [])
      .filter((known) => commonPrefix(known, term) >= Math.max(PREFIX, Math.min(known.length, term.length) - 2))
      .map((known) => this.ids.get(known)!);
  }

  list(): string[] {
    return [...this.ids.keys()];
  }
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Term ids and their counts in one text; an unknown term's count is shared among its relatives.
 * With a lexicon, words are modernised first, and each word also counts, at `expansion` times
 * its WordNet weight, for the book's terms it is related to, and at `glossary` for those its
 * entry in the reader's thesaurus names; a word the book never uses counts for them in full (a
 * reader's "spouse" for the book's "wife", "afterlife" for its "hereafter" and "next world").
 * A word the book never uses but the thesaurus knows counts for its entry rather than for the
 * book's words that merely begin as it does ("journaling" is reckoning and account, not journey).
 * With `share`, it also tallies how many content words it read and how many the book knows; with
 * `readings`, what each word counts for is kept there for the next text.
 */
export function countTerms(
  text: string,
  vocabulary: Vocabulary,
  lexicon?: Lexicon,
  expansion = 0,
  glossary = 0,
  share?: WordsKnown,
  readings?: Map<string, WordReading>,
): Map<number, number> {
  const counts = new Map<number, number>();
  for (const { word, term } of contentWords(text, lexicon?.isWord)) {
    const read = () => readWord(word, term, vocabulary, lexicon, expansion, glossary);
    const reading = readings ? remembered(readings, word, KEPT_READINGS, read) : read();
    const { ids, amounts } = reading;
    for (let i = 0; i < ids.length; i++) counts.set(ids[i]!, (counts.get(ids[i]!) ?? 0) + amounts[i]!);
    // A short word the book does not know is left out: most are slips of short words ("whta",
    // "abot", "bok") that the speller leaves alone, not a subject the book never treats.
    if (share && (reading.read > 0 || word.length > SHORT_WORD)) {
      share.words += 1;
      share.known += reading.read;
    }
  }
  return counts;
}

/**
 * What one word of a text counts for, in the order countTerms adds it (so that counts made from
 * kept readings are the same, bit for bit): the terms and how much each gets, and how far the
 * book knows the word (`WordsKnown`).
 */
interface WordReading {
  ids: number[];
  amounts: number[];
  read: number;
}

/** How many words' readings a question reader keeps (then it forgets them all and starts again). */
const KEPT_READINGS = 20_000;

function readWord(word: string, term: string, vocabulary: Vocabulary, lexicon: Lexicon | undefined, expansion: number, glossary: number): WordReading {
  const reading: WordReading = { ids: [], amounts: [], read: 0 };
  const add = (id: number, n: number) => {
    reading.ids.push(id);
    reading.amounts.push(n);
  };
  const known = vocabulary.ids.has(term);
  const entry = lexicon && glossary > 0 ? lexicon.glossaryTerms(word) : [];
  const ids = !known && entry.length > 0 ? [] : vocabulary.resolve(term);
  for (const id of ids) add(id, 1 / ids.length);
  // The book reads the word as its own, as a form of one of its own, or by its thesaurus entry.
  reading.read = ids.length > 0 || entry.length > 0 ? 1 : 0;
  const weight = ids.length === 0 ? 1 : expansion;
  if (lexicon && weight > 0) {
    for (const [related, w] of lexicon.relatedTerms(word)) {
      const id = vocabulary.ids.get(related);
      if (id === undefined) continue;
      add(id, weight * w);
      // A word it never uses, read as WordNet's relatives of it that it does, counts in part.
      if (ids.length === 0 && reading.read === 0) reading.read = RELATIVES_ONLY;
    }
  }
  if (!lexicon) return reading;
  const glossaryWeight = known ? glossary : 1;
  for (const related of entry) {
    const id = vocabulary.ids.get(related);
    if (id !== undefined) add(id, glossaryWeight);
  }
  return reading;
}

/**
 * How many of a text's content words `countTerms` read, and how many of them the book knows: a
 * term of its own (its passages' and their glosses'), a form of one ("neighbors" for its
 * "neighbour", by the vocabulary's prefix rule), or a word its reader's thesaurus has an entry for
 * (where the thesaurus counts); a word WordNet relates to its own counts `RELATIVES_ONLY`, and a
 * word of `SHORT_WORD` letters or fewer it does not know is not counted at all. A question mostly
 * of words the book knows in none of these ways (a kettle, a router, a capital city) is one it
 * says little about, whatever passage happens to come closest.
 */
interface WordsKnown {
  words: number;
  known: number;
}

/**
 * How much a word the book never uses counts as known when WordNet relates it to words the book
 * does use ("monarch" to its "king"): half. A relative is a guess at the reader's meaning, and
 * most questions the book does not answer ("descale a kettle with vinegar") have relatives for
 * some of their words.
 */
export const RELATIVES_ONLY = 0.5;

/** The longest a word the book does not know may be and still be left out of the share. */
export const SHORT_WORD = 4;

/** A question as a corpus model reads it: its slips mended, its terms counted, and the share of its words the book knows (none, of a question with no content word). */
export interface ReadQuestion {
  text: string;
  mended: string;
  counts: Map<number, number>;
  share: number;
}

/**
 * How a corpus model reads its questions: each mended and counted once, with the share of its
 * words the book knows; what each word counts for is worked out once and kept. The question
 * asked last is kept, as its vector, its marked sentence and its strength each read it in turn;
 * another question coming in between is read again.
 */
export function questionReader(mend: (text: string) => string, vocabulary: Vocabulary, lexicon: Lexicon | undefined, expansion: number, glossary: number): (text: string) => ReadQuestion {
  let last: ReadQuestion | undefined;
  const readings = new Map<string, WordReading>();
  return (text) => {
    if (last?.text === text) return last;
    const mended = mend(text);
    const known: WordsKnown = { words: 0, known: 0 };
    const counts = countTerms(mended, vocabulary, lexicon, expansion, glossary, known, readings);
    return (last = { text, mended, counts, share: known.words === 0 ? 0 : known.known / known.words });
  };
}

/** Vocabulary of every term in the texts, in first-seen order. */
export function buildVocabulary(texts: string[], isWord?: (word: string) => boolean): Vocabulary {
  const ids = new Map<string, number>();
  for (const text of texts) for (const term of terms(text, isWord)) if (!ids.has(term)) ids.set(term, ids.size);
  return new Vocabulary(ids);
}

export function vocabularyFromList(list: unknown): Vocabulary {
  if (!Array.isArray(list)) throw new Error('saved model has no vocabulary');
  return new Vocabulary(new Map(list.map((term, i) => [String(term), i])));
}
