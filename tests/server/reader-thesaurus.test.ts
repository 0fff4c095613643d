import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildVocabulary, countTerms } from '../../server/models/bag-of-terms.ts';
import { buildGlossary, Lexicon } from '../../server/models/lexicon.ts';
import { glossaryVersion, parseThesaurus, READER_THESAURUS } from '../../server/models/reader-thesaurus.ts';
import { stem, words } from '../../server/models/text.ts';
import { CORPUS_FILE } from '../shared-files.ts';

describe("the reader's thesaurus", () => {
  const entries = parseThesaurus(READER_THESAURUS);

  it('gives each reader word once, as one lower-case word, with the book words it stands for', () => {
    expect(entries.length).toBeGreaterThan(500);
    const words = entries.map(([word]) => word);
    expect(new Set(words).size).toBe(words.length);
    for (const [word, bookWords] of entries) {
      expect(word).toMatch(/^[a-z]+$/);
      expect(bookWords.length).toBeGreaterThan(0);
      for (const bookWord of bookWords) expect(bookWord).toMatch(/^[a-z]+$/);
    }
  });

  it('names only words the book uses', async () => {
    const book = new Set(words(await readFile(CORPUS_FILE, 'utf8')));
    expect(entries.flatMap(([, bookWords]) => bookWords.filter((word) => !book.has(word)))).toEqual([]);
  });

  it("changes a model's version with its weight and its text, so a cached index is never reused across them", () => {
    expect(glossaryVersion(0)).toBe('');
    expect(glossaryVersion(0.7)).not.toBe(glossaryVersion(1));
    expect(glossaryVersion(0.7)).toMatch(/^:thesaurus-0\.7-[0-9a-f]{8}$/);
  });
});

describe('the thesaurus reduced to the book', () => {
  const isWord = (word: string) => ['know', 'give'].includes(word);
  const book = new Set(['hereaft', 'next', 'world', 'wife', 'reckon', 'account'].map(stem));

  it("keeps the book's terms of each entry, in the form the models count, and drops the rest", () => {
    const glossary = buildGlossary('afterlife\thereafter next world paradiso\njournaling\treckoning accounts\nselfie\tmirrors', book, isWord);
    expect(glossary.split('\n')).toEqual([`afterlife ${stem('hereafter')} next world`, `journaling ${stem('reckoning')} ${stem('account')}`]);
  });

  it("never points a word at its own stem, which it counts already", () => {
    expect(buildGlossary('worlds\tworld next', book, isWord)).toBe('worlds next');
  });
});

describe('a query word counting for its thesaurus entry', () => {
  const lexicon = new Lexicon({ lemmas: 'wife', related: '', glossary: 'afterlife hereaft next world\nspouse wife' });
  const vocabulary = buildVocabulary(['the hereafter and the next world', 'a wife and a spouse at home']);
  const id = (term: string) => vocabulary.ids.get(term)!;

  it('finds the entry through the inflections of the word', () => {
    expect(lexicon.glossaryTerms('afterlife')).toEqual(['hereaft', 'next', 'world']);
    expect(lexicon.glossaryTerms('spouses')).toEqual(['wife']);
    expect(lexicon.glossaryTerms('heaven')).toEqual([]);
  });

  it('counts a word the book never uses in full for the book words of its entry', () => {
    const counts = countTerms('the afterlife', vocabulary, lexicon, 0.45, 0.7);
    expect(Object.fromEntries([...counts].map(([k, v]) => [vocabulary.list()[k], v]))).toEqual({ hereaft: 1, next: 1, world: 1 });
  });

  it('counts a word the book uses as itself and, at the given weight, for its entry', () => {
    const counts = countTerms('a spouse', vocabulary, lexicon, 0.45, 0.7);
    expect(counts.get(id('spous'))).toBe(1);
    expect(counts.get(id('wife'))).toBeCloseTo(0.7);
    expect(countTerms('a spouse', vocabulary, lexicon, 0.45, 0).get(id('wife'))).toBeUndefined();
  });
});
