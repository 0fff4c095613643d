import { remembered, words } from './text.ts';

/**
 * Typo tolerance on the query side: a word that neither the book (with its glosses) nor the
 * general English the models know has is read as the closest word that one of them has, so
 * "pateince" finds patience and "anxeity" anxiety. Pure functions and plain data only (no Node
 * module), so that a browser's Web Worker can run the same code for offline search.
 */

/**
 * The Damerau–Levenshtein distance of two words (optimal string alignment: insertions, deletions,
 * substitutions and swaps of two neighbouring letters each cost 1), or `max + 1` as soon as it is
 * certain to be above `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}

/** The set of letters a to z a word holds, one bit each. */
function letters(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) - 97;
    if (c >= 0 && c < 26) mask |= 1 << c;
  }
  return mask;
}

function bitCount(n: number): number {
  let count = 0;
  for (let m = n; m !== 0; m &= m - 1) count++;
  return count;
}

export interface SpellerOptions {
  /** Words shorter than this are never corrected (too many words lie one letter from them). */
  minLength: number;
  /** From this length on a word may be two edits from its correction; shorter ones one. */
  longWord: number;
}

export const DEFAULT_SPELLER: SpellerOptions = { minLength: 4, longWord: 8 };

/** Words a slip may be read as, best first, and a quick way to find one. */
export interface WordList {
  readonly words: readonly string[];
  /** The word's place in `words` (the lower the better), or undefined for a word not there. */
  rankOf(word: string): number | undefined;
}

/** A list of words, best first, found through a map of them. */
export function rankedList(words: readonly string[]): WordList {
  const rank = new Map<string, number>();
  words.forEach((word, i) => {
    if (!rank.has(word)) rank.set(word, i);
  });
  return { words, rankOf: (word) => rank.get(word) };
}

/** A list of words in sorted order (none better than another), found by binary search: no map to build. */
export function sortedList(words: readonly string[]): WordList {
  return {
    words,
    rankOf: (word) => {
      let [low, high] = [0, words.length - 1];
      while (low <= high) {
        const mid = (low + high) >> 1;
        const at = words[mid]!;
        if (at === word) return mid;
        if (at < word) low = mid + 1;
        else high = mid - 1;
      }
      return undefined;
    },
  };
}

/** What a speller knows. */
export interface SpellerWords {
  /**
   * The lists of words a slip may be read as, the best list first (the book's words, then
   * general English's, then any more), asked for once, when a first word is read (or at `prepare`).
   */
  lists: () => WordList[];
  /** Whether a word is known as it is beyond the lists (an archaic form, say). */
  isKnown?: (word: string) => boolean;
  /**
   * The word and the words it may be a form of ("smoulders": smoulder). A form of a listed word
   * is left alone unless one swap makes it a listed word itself ("saked" is asked, not a form of sake).
   */
  formsOf?: (word: string) => string[];
}

/** The word with its letters at `i` and `i + 1` swapped. */
const swapped = (word: string, i: number) => word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2);

/** How many words a speller keeps what it read them as (then it forgets them all and starts again). */
const KEPT_CORRECTIONS = 20_000;

/**
 * Reads a misspelt word as the known word it most likely stands for. A word one swap of two
 * neighbouring letters from a listed word (a phone keyboard's commonest slip) is read as it, then
 * a form of a listed word is left alone, then one swap from such a form is read as it; otherwise
 * the closest listed word at Damerau–Levenshtein distance 1, or 2 for a long word. Among equals,
 * the better list wins (the book's words before English ones), then the better place in it
 * (frequent before rare). The lists are scanned in one pass, most words ruled out by length and
 * by their letters (an edit adds at most one letter the word lacks and drops at most one it has)
 * before any distance is worked out: a few milliseconds for a word unlike any.
 */
export class Speller {
  private wordLists?: WordList[];
  private masks?: Int32Array[];
  /** Each word asked about, and what it reads as (itself, when it is known or too short to mend). */
  private readonly corrections = new Map<string, string>();

  constructor(
    private readonly vocabulary: SpellerWords,
    private readonly options: SpellerOptions = DEFAULT_SPELLER,
  ) {}

  private lists(): WordList[] {
    return (this.wordLists ??= this.vocabulary.lists());
  }

  private letterMasks(): Int32Array[] {
    return (this.masks ??= this.lists().map((list) => Int32Array.from(list.words, letters)));
  }

  /** Builds now what the first misspelt word would otherwise wait for (the lists, the letters of their words). */
  prepare(): this {
    this.letterMasks();
    return this;
  }

  private listed(word: string): boolean {
    return this.lists().some((list) => list.rankOf(word) !== undefined);
  }

  /** Whether the word is known as it is: left alone. Most of a question's words are the book's: the lists are asked first. */
  private known(word: string): boolean {
    return this.listed(word) || (this.vocabulary.isKnown?.(word) ?? false);
  }

  /** How many words' readings are kept now. */
  get kept(): number {
    return this.corrections.size;
  }

  /** The word, or the known word it is most likely a slip for (itself when none is near enough). */
  correct(word: string): string {
    // Listed words are words of letters a to z alone (what `words` gives, less any with an apostrophe or a digit).
    return remembered(this.corrections, word, KEPT_CORRECTIONS, () =>
      word.length < this.options.minLength || !/^[a-z]+$/.test(word) || this.known(word) ? word : this.mended(word),
    );
  }

  private mended(word: string): string {
    const swaps = Array.from({ length: word.length - 1 }, (_, i) => swapped(word, i));
    for (const list of this.lists()) {
      let best: number | undefined;
      for (const swap of swaps) {
        const rank = list.rankOf(swap);
        if (rank !== undefined && (best === undefined || rank < best)) best = rank;
      }
      if (best !== undefined) return list.words[best]!;
    }
    const isForm = (w: string) => (this.vocabulary.formsOf?.(w) ?? []).some((form) => this.listed(form));
    if (isForm(word)) return word;
    return swaps.find((w) => (this.vocabulary.isKnown?.(w) ?? false) || isForm(w)) ?? this.closest(word);
  }

  private closest(word: string): string {
    const lists = this.lists();
    const masks = this.letterMasks();
    const max = word.length >= this.options.longWord ? 2 : 1;
    const mask = letters(word);
    let found = word;
    let bestDistance = max + 1;
    lists.forEach((list, l) => {
      for (let i = 0; i < list.words.length && bestDistance > 1; i++) {
        const candidate = list.words[i]!;
        // Earlier words are preferred: a later one must be strictly closer, and no closer than its
        // difference in length or in letters allows.
        if (Math.abs(candidate.length - word.length) >= bestDistance) continue;
        const other = masks[l]![i]!;
        if (bitCount(other & ~mask) >= bestDistance || bitCount(mask & ~other) >= bestDistance) continue;
        const distance = editDistance(word, candidate, bestDistance - 1);
        if (distance < bestDistance) {
          found = candidate;
          bestDistance = distance;
        }
      }
    });
    return found;
  }

  private last: [string, string] = ['', ''];

  /**
   * The text's words, each corrected, lower-cased and joined by spaces (what the models read of
   * it is unchanged otherwise). The last text's is kept: both models read a question in turn.
   */
  correctText(text: string): string {
    if (this.last[0] !== text) this.last = [text, words(text).map((word) => this.correct(word)).join(' ')];
    return this.last[1];
  }
}

/** The words of these texts (a model's passages, glosses and all), most frequent first: what `SpellerWords.book` takes. */
export function bookWords(texts: string[]): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) for (const word of words(text)) if (/^[a-z]+$/.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  // A stable sort: equally frequent words stay in the order the book first uses them.
  return [...counts].sort((a, b) => b[1] - a[1]).map(([word]) => word);
}

/** What a model's version says of its typo tolerance (empty without it). */
export function typosVersion(on: boolean, options: SpellerOptions = DEFAULT_SPELLER): string {
  return on ? `:typos-${options.minLength}-${options.longWord}` : '';
}
