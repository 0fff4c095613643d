// Starts no server, store or engine: it does not wait for the run's fixtures.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildVocabulary, countTerms } from '../../common/search/bag-of-terms.ts';
import { loadCorpus } from '../../server/modules/book/load-corpus.ts';
import { buildGlossary, fitLexicon, wordsLikeForms } from '../../server/modules/search/fit/lexicon.ts';
import { Lexicon } from '../../common/search/lexicon.ts';
import { LSA_SETTINGS, SIF_SETTINGS } from '../../server/modules/search/models/lineup.ts';
import { lsaRecipe } from '../../server/modules/search/fit/lsa-fit.ts';
import { glossaryVersion, parseThesaurus, READER_THESAURUS, READER_THESAURUS_FILE } from '../../server/modules/search/fit/reader-thesaurus.ts';
import { sifRecipe } from '../../server/modules/search/fit/sif-fit.ts';
import { stem, words } from '../../common/search/text.ts';
import { CORPUS_FILE } from '../repo-files.ts';

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

  it("names only words the book's passages use (not only its notes)", async () => {
    const passages = (await loadCorpus(CORPUS_FILE)).passages;
    const book = new Set(passages.flatMap((p) => words(p.text)));
    expect(entries.flatMap(([, bookWords]) => bookWords.filter((word) => !book.has(word)))).toEqual([]);
  });

  it("is part of both models' version, with its weight and its text's hash, so a cached index is never reused across them", () => {
    expect(glossaryVersion(0)).toBe('');
    expect(glossaryVersion(0.7)).toMatch(/^:thesaurus-0\.7-[0-9a-f]{8}$/);
    for (const recipe of [(o: object) => lsaRecipe({ ...LSA_SETTINGS, ...o }), (o: object) => sifRecipe({ ...SIF_SETTINGS, ...o })]) {
      expect(recipe({}).version).toContain(glossaryVersion(0.7));
      expect(recipe({ glossary: 1 }).version).toContain(glossaryVersion(1));
      expect(recipe({ glossary: 0 }).version).not.toContain('thesaurus');
      expect(recipe({}).name).toMatch(/\+thesaurus(\+gloss)?$/);
    }
  });
});

describe("the thesaurus's data file", () => {
  it('ships as a table beside the fitting code, every line of it one entry', () => {
    expect(READER_THESAURUS_FILE).toMatch(/server\/modules\/search\/fit\/data\/reader-thesaurus\.tsv$/);
    const lines = readFileSync(READER_THESAURUS_FILE, 'utf8').split('\n').filter((line) => line !== '');
    expect(parseThesaurus(READER_THESAURUS).map(([word, bookWords]) => `${word}\t${bookWords.join(' ')}`)).toEqual(lines);
  });

  it('refuses a line that is not a word, a tab and the book words, naming the line, rather than dropping it', () => {
    expect(() => parseThesaurus('afterlife\thereafter next world\nselfie mirrors\n')).toThrow(/line 2 .*"selfie mirrors"/);
    expect(() => parseThesaurus('afterlife\thereafter\tnext world')).toThrow(/line 1/);
    expect(() => parseThesaurus('afterlife\t  \n')).toThrow(/line 1/);
    expect(parseThesaurus('\nafterlife\thereafter next\n\n')).toEqual([['afterlife', ['hereafter', 'next']]]);
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
  const lexicon = new Lexicon({
    lemmas: 'wife care earnest',
    related: '',
    glossary: `afterlife hereaft next world\nspouse wife\ncar steed camel\nearn livelihood\njournaling reckon account`,
  });
  const vocabulary = buildVocabulary(['the hereafter and the next world', 'a wife and a spouse at home', 'a journey, its reckoning and account']);
  const id = (term: string) => vocabulary.ids.get(term)!;
  const named = (counts: Map<number, number>) => Object.fromEntries([...counts].map(([k, v]) => [vocabulary.list()[k], v]));

  it('finds the entry through the inflections of the word', () => {
    expect(lexicon.glossaryTerms('afterlife')).toEqual(['hereaft', 'next', 'world']);
    expect(lexicon.glossaryTerms('spouses')).toEqual(['wife']);
    expect(lexicon.glossaryTerms('cars')).toEqual(['steed', 'camel']);
    expect(lexicon.glossaryTerms('heaven')).toEqual([]);
  });

  it('never reads a word of its own as the form of another: cares are not cars, earnest is not earn', () => {
    expect(lexicon.glossaryTerms('cares')).toEqual([]);
    expect(lexicon.glossaryTerms('caring')).toEqual([]);
    expect(lexicon.glossaryTerms('earnest')).toEqual([]);
  });

  it('knows as words of their own the lemmas that look like a form of an entry', () => {
    const glossary = 'income livelihood\nnumb dulled\ncar steed';
    expect(wordsLikeForms(glossary, ['incoming', 'number', 'income', 'numbness', 'care', 'wisdom'])).toEqual(['incoming', 'number']);
  });

  it("counts a word the book never uses for its entry, not for the book's words that merely begin as it does", () => {
    expect(named(countTerms('journaling', vocabulary, lexicon, 0.45, 0.7))).toEqual({ reckon: 1, account: 1 });
    // Without an entry, the nearest book words by their letters are all there is.
    expect(named(countTerms('journaling', vocabulary, lexicon, 0.45, 0))).toEqual({ journei: 1 });
  });

  it('counts a word the book never uses in full for the book words of its entry', () => {
    expect(named(countTerms('the afterlife', vocabulary, lexicon, 0.45, 0.7))).toEqual({ hereaft: 1, next: 1, world: 1 });
  });

  it('counts a word the book uses as itself and, at the given weight, for its entry', () => {
    const counts = countTerms('a spouse', vocabulary, lexicon, 0.45, 0.7);
    expect(counts.get(id('spous'))).toBe(1);
    expect(counts.get(id('wife'))).toBeCloseTo(0.7);
    expect(countTerms('a spouse', vocabulary, lexicon, 0.45, 0).get(id('wife'))).toBeUndefined();
  });

  it("counts a question the same, term for term and in order, from its words' kept readings as afresh", () => {
    const question = 'my spouse keeps journaling about the afterlife, and my spouse worries';
    const fresh = { words: 0, known: 0 };
    const afresh = [...countTerms(question, vocabulary, lexicon, 0.45, 0.7, fresh)];
    const readings = new Map();
    for (const round of [1, 2]) {
      const known = { words: 0, known: 0 };
      expect([...countTerms(question, vocabulary, lexicon, 0.45, 0.7, known, readings)], `round ${round}`).toEqual(afresh);
      expect(known).toEqual(fresh);
    }
    expect(readings.size).toBeGreaterThan(0);
  });
});

describe("the thesaurus fitted on the book", async () => {
  const passages = (await loadCorpus(CORPUS_FILE)).passages.map((p) => p.text);
  const lexicon = new Lexicon(fitLexicon(passages, true));

  it("reads a reader's word, and its inflections, as the book's words for it", () => {
    expect(lexicon.glossaryTerms('afterlife')).toEqual(expect.arrayContaining([stem('hereafter'), 'next', 'world']));
    expect(lexicon.glossaryTerms('journaling')).toEqual(expect.arrayContaining([stem('reckoning'), stem('account')]));
    expect(lexicon.glossaryTerms('spouses').length).toBeGreaterThan(0);
  });

  it('leaves alone the common words that only look like forms of its entries', () => {
    for (const word of ['cares', 'caring', 'number', 'incoming', 'earnest', 'crushed', 'staring', 'spelling']) {
      expect([word, lexicon.glossaryTerms(word)]).toEqual([word, []]);
    }
  });
});
