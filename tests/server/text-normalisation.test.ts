// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { baseForms, Lexicon, lexiconFor } from '../../common/search/lexicon.ts';
import { ARCHAIC_FORMS, modernise, stem, stemsKept, terms } from '../../common/search/text.ts';

// A small dictionary standing in for WordNet's lemmas.
const DICTIONARY = new Set(['know', 'give', 'seek', 'make', 'speak', 'desire', 'lofty', 'feeble', 'bid', 'come', 'great', 'high', 'forest', 'honest', 'teeth', 'interest', 'say']);
const isWord = (word: string) => DICTIONARY.has(word);

describe('archaic English brought to its modern form', () => {
  it.each(Object.entries(ARCHAIC_FORMS))('reads %s as %s', (archaic, modern) => {
    expect(modernise(archaic, isWord)).toBe(modern);
  });

  it.each([
    ['knowest', 'know'],
    ['knoweth', 'know'],
    ['giveth', 'give'],
    ['seeketh', 'seek'],
    ['makest', 'make'],
    ['speakest', 'speak'],
    ['sayest', 'say'],
    ['desirest', 'desire'],
    ['cometh', 'come'],
    ['biddeth', 'bid'],
    ['loftiest', 'lofty'],
    ['feeblest', 'feeble'],
    ['greatest', 'great'],
    ['highest', 'high'],
  ])('reads the verb or superlative %s as %s', (archaic, modern) => {
    expect(modernise(archaic, isWord)).toBe(modern);
  });

  it.each(['forest', 'honest', 'teeth', 'interest', 'best', 'east', 'zest'])('leaves %s, a word of its own, as it is', (word) => {
    expect(modernise(word, isWord)).toBe(word);
  });

  it("gives a reader's modern question and the book's archaic wording the same terms", () => {
    expect(terms('Knowest thou thyself? He giveth thee thy bread.', isWord)).toEqual(terms('Do you know yourself? He gives you your bread.', isWord));
  });
});

describe('the lexicon of WordNet relatives', () => {
  const lexicon = new Lexicon({ lemmas: 'spouse wife', related: 'spouse wife 0.5 husband 0.5\nwrath anger 1' });

  it('finds the book terms a word stands for, through its inflections', () => {
    expect(lexicon.relatedTerms('spouse')).toEqual([['wife', 0.5], ['husband', 0.5]]);
    expect(lexicon.relatedTerms('spouses')).toEqual([['wife', 0.5], ['husband', 0.5]]);
    expect(lexicon.relatedTerms('wrath')).toEqual([['anger', 1]]);
    expect(lexicon.relatedTerms('unrelated')).toEqual([]);
    expect(lexicon.isWord('wife')).toBe(true);
    expect(lexicon.isWord('husband')).toBe(false);
  });

  it('is shared by the models that saved the same one, and not by one that saved another', () => {
    const saved = { lemmas: 'spouse wife', related: 'spouse wife 0.5 husband 0.5' };
    const first = lexiconFor(saved);
    expect(lexiconFor(JSON.parse(JSON.stringify(saved)) as typeof saved)).toBe(first);
    expect(lexiconFor({ ...saved, related: 'spouse wife 1' })).not.toBe(first);
  });

  it('lists base forms by the usual English endings', () => {
    expect(baseForms('marriages')).toContain('marriage');
    expect(baseForms('studies')).toContain('study');
    expect(baseForms('loving')).toContain('love');
    expect(baseForms('prayed')).toContain('pray');
  });
});

describe('the stems kept', () => {
  it('are at most 50,000, whatever stream of new words is stemmed, and each stem is still right', () => {
    for (let n = 0; n < 50_100; n++) stem(`word${n}ing`);
    expect(stemsKept()).toBeLessThanOrEqual(50_000);
    expect(stem('patiently')).toBe('patient');
  });
});
