import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkPassages, sentenceSpans, splitSentences } from '../../server/modules/book/chunk-passages.ts';
import { corpusFromMarkdown } from '../../server/modules/book/load-corpus.ts';
import { parseBook, plainText } from '../../server/modules/book/parse-book.ts';
import { CORPUS_FILE } from '../repo-files.ts';

const BOOK = readFileSync(CORPUS_FILE, 'utf8');
const book = parseBook(BOOK);
const passages = chunkPassages(book);
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('the book, parsed', () => {
  it('finds the title and the eleven parts in order', () => {
    expect(book.title).toBe('The Alchemy of Happiness');
    expect(book.chapters.map((c) => c.slug)).toEqual([
      'editorial-note', 'preface', 'introduction', 'ch1', 'ch2', 'ch3', 'ch4', 'ch5', 'ch6', 'ch7', 'ch8',
    ]);
    expect(book.chapters[10]!.sections.map((s) => s.heading)).toEqual([null, 'The Vision of God', 'The Signs of the Love of God']);
  });

  it('keeps the 27 footnotes apart from the text', () => {
    expect(book.footnotes.size).toBe(27);
    expect(book.footnotes.get('ch1-1')).toBe('Traditional saying of Muhammad.');
    expect(passages.some((p) => p.text.includes('[^'))).toBe(false);
    expect(passages.some((p) => p.text.includes('Traditional saying of Muhammad'))).toBe(false);
    expect(passages.find((p) => p.id === 'ch1-1')!.notes).toEqual([{ label: 'ch1-1', text: 'Traditional saying of Muhammad.' }]);
  });

  it('removes Markdown emphasis but keeps the words as printed', () => {
    expect(plainText('his _Ihya-ul-ulum_ (“Revival”) and **bold**[^x]')).toBe('his Ihya-ul-ulum (“Revival”) and bold');
    expect(passages.some((p) => /(^|\s)_\w|\w_(\s|[.,;:]|$)|\*\*/.test(p.text))).toBe(false);
  });
});

describe('passages', () => {
  it('lose and duplicate nothing: joined in order they are exactly the book’s paragraphs', () => {
    const paragraphs = book.chapters.flatMap((c) => c.sections.flatMap((s) => s.blocks.map((b) => b.text)));
    expect(squash(passages.map((p) => p.text).join(' '))).toBe(squash(paragraphs.join(' ')));
    for (const paragraph of paragraphs) {
      const inPassages = passages.filter((p) => squash(p.text).includes(squash(paragraph))).length;
      // A paragraph is either whole in exactly one passage, or split across consecutive ones.
      expect(inPassages).toBeLessThanOrEqual(1);
    }
  });

  it('are 80 to 200 words, but for the few a short section or verse stretches', () => {
    const words = passages.map((p) => p.words);
    expect(Math.min(...words)).toBeGreaterThanOrEqual(80);
    expect(Math.max(...words)).toBeLessThanOrEqual(250);
    expect(words.filter((w) => w > 200).length).toBeLessThanOrEqual(passages.length * 0.05);
  });

  it('keep verse lines together, with their line breaks', () => {
    const verse = 'Thou may\'st measure out thousands of measures of wine,\nBut, till thou drink it, no joy is thine.';
    expect(passages.filter((p) => p.text.includes(verse))).toHaveLength(1);
  });

  it('split a long paragraph only at sentence ends, into near-equal pieces', () => {
    const sentence = (i: number) => `Sentence number ${i} has exactly eight words here.`;
    const long = Array.from({ length: 60 }, (_, i) => sentence(i)).join(' '); // 480 words
    const pieces = chunkPassages(parseBook(`# T\n\n## Chapter I: One\n\n${long}\n`));
    expect(pieces.map((p) => p.words)).toEqual([160, 160, 160]);
    for (const p of pieces) expect(p.text).toMatch(/^Sentence number \d+ .*here\.$/);
    expect(pieces.map((p) => p.text).join(' ')).toBe(long);
  });

  it('never cross a chapter or section, and carry their chapter, section and place', () => {
    passages.forEach((p, i) => expect(p.index).toBe(i));
    const vision = passages.filter((p) => p.section === 'The Vision of God');
    expect(vision[0]!.text.startsWith('All Moslems profess to believe that the Vision of God')).toBe(true);
    expect(vision.every((p) => p.chapter === 'Chapter VIII: The Love of God')).toBe(true);
  });

  it('have ids that are unique and stable', () => {
    expect(new Set(passages.map((p) => p.id)).size).toBe(passages.length);
    expect(passages[0]!.id).toBe('editorial-note-1');
    expect(passages.find((p) => p.text.startsWith('KNOWLEDGE of self is the key'))!.id).toBe('ch1-1');
    expect(corpusFromMarkdown(BOOK).hash).toBe(corpusFromMarkdown(BOOK).hash);
    expect(corpusFromMarkdown(BOOK.replace('KNOWLEDGE of self', 'Knowledge of self')).hash).not.toBe(corpusFromMarkdown(BOOK).hash);
  });
});

describe('splitSentences', () => {
  it('splits at sentence ends but not after initials or abbreviations', () => {
    expect(splitSentences('Bayazid (ob. A. D. 875) spoke. He said “Glory!” Then he left.')).toEqual([
      'Bayazid (ob. A. D. 875) spoke.',
      'He said “Glory!”',
      'Then he left.',
    ]);
  });
});

describe('sentenceSpans', () => {
  it('gives each sentence its offsets, across paragraphs and verse lines', () => {
    const text = 'He said, “Know thyself.” Then he left.\n\nA verse line\nAnd another. Done!';
    const spans = sentenceSpans(text);
    expect(spans.map(([start, end]) => text.slice(start, end))).toEqual([
      'He said, “Know thyself.”',
      'Then he left.',
      'A verse line\nAnd another.',
      'Done!',
    ]);
  });

  it('covers the text of every passage of the book in order, without overlaps', () => {
    for (const p of passages) {
      const spans = sentenceSpans(p.text);
      expect(spans.length, p.id).toBeGreaterThan(0);
      for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
      expect(squash(spans.map(([s, e]) => p.text.slice(s, e)).join(' '))).toBe(squash(p.text));
    }
  });
});
