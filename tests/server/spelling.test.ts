import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bookWords, editDistance, rankedList, sortedList, Speller, type SpellerWords } from '../../common/search/spelling.ts';
import { LSA_SETTINGS, SIF_SETTINGS } from '../../server/modules/search/models/lineup.ts';
import { lsaRecipe } from '../../server/modules/search/fit/lsa-fit.ts';
import { sifRecipe } from '../../server/modules/search/fit/sif-fit.ts';
import { corpusEngine } from './engine-helpers.ts';

const BOOK = ['patience', 'the', 'heart', 'seed', 'send', 'asked', 'forgiveness', 'writing', 'writhing'];
const ENGLISH = ['the', 'said', 'anxiety', 'sake', 'hines', 'hinges', 'patient'];
const WORDNET = ['blindfold', 'smoulder'];

/** A speller over a small book, a little English and a little WordNet; "smoulders" is a form of smoulder, as WordNet's rules would say. */
function speller(more: Partial<SpellerWords> = {}) {
  return new Speller({
    lists: () => [rankedList(BOOK), rankedList(ENGLISH), sortedList(WORDNET)],
    formsOf: (word) => [word, ...(word.endsWith('s') ? [word.slice(0, -1)] : []), ...(word.endsWith('ed') ? [word.slice(0, -1)] : [])],
    ...more,
  });
}

describe('edit distance (Damerau–Levenshtein, optimal string alignment)', () => {
  it('counts a swap of neighbouring letters as one edit, like an insertion, a deletion or a substitution', () => {
    expect(editDistance('pateince', 'patience', 2)).toBe(1);
    expect(editDistance('patience', 'patience', 2)).toBe(0);
    expect(editDistance('patince', 'patience', 2)).toBe(1);
    expect(editDistance('patiance', 'patience', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });

  it('stops at max + 1 once the words are further apart than max', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('the speller', () => {
  it('reads a word with two neighbouring letters swapped as the word', () => {
    const s = speller();
    expect(s.correct('pateince')).toBe('patience');
    expect(s.correct('anxeity')).toBe('anxiety');
    expect(s.correct('blnidfold')).toBe('blindfold');
    expect(s.correctText('What does PATEINCE bring, and anxeity?')).toBe('what does patience bring and anxiety');
  });

  it('keeps what it read each word as for at most 20,000 words, whatever stream of new words it is asked', () => {
    const s = speller();
    // Words of letters alone, each new: "baaa", "baab", … (none near a known word).
    const word = (n: number) => 'b' + Array.from({ length: 5 }, (_, i) => String.fromCharCode(97 + (Math.floor(n / 26 ** i) % 26))).join('');
    for (let n = 0; n < 20_050; n++) s.correct(word(n));
    expect(s.kept).toBeLessThanOrEqual(20_000);
    expect(s.correct('pateince')).toBe('patience');
  });

  it('leaves alone a known word, a short one, one with an apostrophe or a digit, and one near no known word', () => {
    const s = speller({ isKnown: (word) => word === 'thinkest' });
    for (const word of ['heart', 'thinkest', 'hte', 'did\'nt', 'h3art', 'xqzvbnm']) expect(s.correct(word), word).toBe(word);
  });

  it('leaves alone a form of a known word, unless one swap makes it a known word itself', () => {
    const s = speller();
    expect(s.correct('smoulders')).toBe('smoulders');
    // "saked" could be a form of sake; one swap makes it the book's "asked".
    expect(s.correct('saked')).toBe('asked');
    // One swap from a form of a known word: read as that form.
    expect(s.correct('smouldesr')).toBe('smoulders');
  });

  it('prefers a swap to any other edit, and the book to English, at one edit', () => {
    const s = speller();
    // "sned" is one substitution from the book's seed and one swap from its send.
    expect(s.correct('sned')).toBe('send');
    // "hignes" is one deletion from English's hines and one swap from its hinges.
    expect(s.correct('hignes')).toBe('hinges');
    // "patiense": one substitution from the book's patience; none is nearer in English.
    expect(s.correct('patiense')).toBe('patience');
    // "wrihting" is one swap from writhing, one deletion from writing.
    expect(s.correct('wrihting')).toBe('writhing');
  });

  it('reads a long word at two edits from a known one, a shorter one only at one', () => {
    const s = speller();
    expect(editDistance('forgivnes', 'forgiveness', 3)).toBe(2);
    expect(s.correct('forgivnes')).toBe('forgiveness');
    expect(editDistance('pacence', 'patience', 3)).toBe(2);
    expect(s.correct('pacence')).toBe('pacence');
  });

  it("asks for its lists once, at the first word or when prepared, and counts the book's words by frequency", () => {
    let asked = 0;
    const s = new Speller({ lists: () => (asked++, [rankedList(BOOK)]) });
    expect(asked).toBe(0);
    expect(s.correct('heart')).toBe('heart');
    expect(s.correct('haert')).toBe('heart');
    expect(s.correct('pateince')).toBe('patience');
    expect(asked).toBe(1);
    const prepared = new Speller({ lists: () => (asked++, [rankedList(BOOK)]) }).prepare();
    expect(asked).toBe(2);
    expect(prepared.correct('haert')).toBe('heart');
    expect(asked).toBe(2);
    expect(bookWords(['The heart, the heart!', 'The mirror of the heart; 3 hearts'])).toEqual(['the', 'heart', 'mirror', 'of', 'hearts']);
    expect(sortedList(['apple', 'blind', 'cart']).rankOf('blind')).toBe(1);
    expect(sortedList(['apple', 'blind', 'cart']).rankOf('bland')).toBeUndefined();
  });

  it('imports nothing of Node, so that a browser can run it (as text.ts, which it reads words with)', async () => {
    for (const file of ['spelling.ts', 'text.ts']) {
      const source = await readFile(new URL(`../../common/search/${file}`, import.meta.url), 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect(imports.filter((name) => name!.startsWith('node:') || !['./text.ts', 'stemmer'].includes(name!)), file).toEqual([]);
    }
  });
});

describe("both weight-free models' typo tolerance", () => {
  it('is part of their version', () => {
    expect(lsaRecipe(LSA_SETTINGS).version).toMatch(/:typos-4-8$/);
    expect(sifRecipe(SIF_SETTINGS).version).toMatch(/:typos-4-8$/);
    expect(lsaRecipe({ ...LSA_SETTINGS, typos: false }).version).not.toContain('typos');
  });

  it('finds for a misspelt question what the question finds', async () => {
    const engine = await corpusEngine();
    for (const [typod, clean] of [
      ['how can I learn pateince?', 'how can I learn patience?'],
      ['my anxeity about the future', 'my anxiety about the future'],
      ['the bilnd men and the elehpant', 'the blind men and the elephant'],
    ]) {
      const ids = async (query: string) => (await engine.search(query, 3, ['lsa-96', 'sif-150'])).map((r) => `${r.model} ${r.id}`);
      expect(await ids(typod!), typod).toEqual(await ids(clean!));
    }
  });
});
