import { baseForms, type Lexicon } from './lexicon.ts';
import { rankedList, sortedList, Speller } from './spelling.ts';
import { modernise } from './text.ts';
import type { FittedState, ModelResources } from './types.ts';
import type { WordVectors } from './word-vectors.ts';

let last: { book: string; english?: WordVectors; lexicon?: Lexicon; speller: Speller } | undefined;

/**
 * The speller of a corpus model: a slip is read as one of the book's words (with its glosses';
 * saved with the fit, most frequent first), else of general English's (GloVe's, by frequency),
 * else of WordNet's (saved sorted with the lexicon). A word is left alone when one of them has it,
 * the reader's thesaurus has an entry for it, or it is an archaic form; and a form of one of
 * theirs unless one swap makes it a word ("smoulders" stays, "saked" is asked). Both models of a
 * lineup share one.
 */
function spellerFor(book: string, english: WordVectors | undefined, lexicon: Lexicon | undefined): Speller {
  if (last?.book === book && last.english === english && last.lexicon === lexicon) return last.speller;
  const isWord = lexicon?.isWord ?? (() => false);
  const speller = new Speller({
    lists: () => [
      rankedList(book.split(' ').filter(Boolean)),
      ...(english ? [{ words: english.table.words, rankOf: (word: string) => english.exactRow(word) }] : []),
      sortedList(lexicon?.data.words?.split(' ') ?? []),
    ],
    isKnown: (word) => isWord(word) || (lexicon?.glossaryTerms(word).length ?? 0) > 0 || modernise(word, isWord) !== word,
    formsOf: baseForms,
  });
  last = { book, english, lexicon, speller };
  return speller;
}

/**
 * How a corpus model reads a query before anything else: with `typos`, each misspelt word as the
 * word it most likely stands for (spelling.ts); else as typed.
 */
export function querySpelling(state: FittedState, typos: boolean, resources: ModelResources, lexicon?: Lexicon): (text: string) => string {
  if (!typos) return (text) => text;
  const book = typeof state.meta.spelling === 'string' ? state.meta.spelling : '';
  // Ready before the first question rather than during it.
  const speller = spellerFor(book, resources.words, lexicon).prepare();
  return (text) => speller.correctText(text);
}
