// Starts no server, store or engine: it does not wait for the run's fixtures.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkPassages, cutPoints, DEFAULT_SIZES, sentenceSpans, splitSentences } from '../../server/modules/book/chunk-passages.ts';
import { corpusFromMarkdown } from '../../server/modules/book/load-corpus.ts';
import { markOf } from '../../common/search/paragraph-map.ts';
import { parseBook, plainText } from '../../server/modules/book/parse-book.ts';
import { CORPUS_FILE } from '../repo-files.ts';

const BOOK = readFileSync(CORPUS_FILE, 'utf8');
const book = parseBook(BOOK);
const passages = chunkPassages(book);
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const blocks = book.chapters.flatMap((c) => c.sections.flatMap((s) => s.blocks));
const blockOf = (anchor: string) => blocks.find((b) => b.anchor === anchor)!;

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

  it('are 80 to 200 words, but for the few a quotation, verse or a short neighbour stretches', () => {
    const words = passages.map((p) => p.words);
    expect(Math.min(...words)).toBeGreaterThanOrEqual(80);
    expect(words.filter((w) => w > 200).length).toBeLessThanOrEqual(passages.length * 0.08);
    for (const p of passages.filter((q) => q.words > 250)) {
      // Only one part of one paragraph that no cut could split (a long quotation) goes past 250.
      expect(p.paragraphs, p.id).toHaveLength(1);
      const { from, to } = p.paragraphs[0]!;
      const text = blockOf(p.paragraphs[0]!.anchor).text;
      expect(cutPoints(text).filter((c) => c.end > from && c.next < to), p.id).toEqual([]);
    }
  });

  it('are never cut inside a sentence or a quotation, however many sentences it runs over', () => {
    for (const p of passages) {
      for (const part of p.paragraphs) {
        const cuts = cutPoints(blockOf(part.anchor).text);
        if (part.from > 0) expect(cuts.map((c) => c.next), `${p.id} starts at ${part.anchor}:${part.from}`).toContain(part.from);
        if (part.to < blockOf(part.anchor).text.length) expect(cuts.map((c) => c.end), `${p.id} ends at ${part.anchor}:${part.to}`).toContain(part.to);
      }
    }
    // Ch. V's Lady Ayesha tradition: one quotation of several sentences, with a quotation inside.
    const ayesha = passages.find((p) => p.text.includes('One festival-day some negroes'))!;
    expect(ayesha.text).toContain('‘Haven\'t you had enough’?”');
    expect(cutPoints('He said, “One. Two. Three.” Then. ‘Four. Five.’ Six.').map((c) => c.next)).toEqual([28, 34, 48]);
    // A quotation whose closing mark the printer left out runs to its paragraph's end.
    expect(cutPoints('A said. He relates, “One. Two. Three.')).toEqual([{ end: 7, next: 8 }]);
    // A ’ with no ‘ open is an apostrophe.
    expect(cutPoints('The saints’ way. Then more.')).toHaveLength(1);
  });

  it('know their paragraphs: the passage’s text is their parts, so any offset maps to a paragraph and an offset in it', () => {
    for (const p of passages) {
      expect(p.paragraphs.length, p.id).toBeGreaterThan(0);
      expect(p.paragraphs.map((part) => blockOf(part.anchor).text.slice(part.from, part.to)).join('\n\n')).toBe(p.text);
      for (const part of p.paragraphs) expect(p.text.slice(part.at, part.at + part.to - part.from)).toBe(blockOf(part.anchor).text.slice(part.from, part.to));
    }
    expect(passages.find((p) => p.id === 'ch1-1')!.paragraphs[0]).toEqual({ anchor: 'ch1#p1', at: 0, from: 0, to: expect.any(Number) });
    // Every sentence a result may mark is the same words at its place in its paragraph.
    for (const p of passages) {
      for (const [start, end] of sentenceSpans(p.text)) {
        const mark = markOf(p.paragraphs, { start, end });
        expect(blockOf(mark.anchor).text.slice(mark.start, mark.end), p.id).toBe(p.text.slice(start, end));
      }
    }
    const anchors = passages.flatMap((p) => p.paragraphs.map((part) => part.anchor));
    expect(new Set(anchors).size).toBe(185); // every paragraph of the book, in order
  });

  it('keep footnotes apart, each with the passage holding its mark', () => {
    for (const [label] of book.footnotes) {
      const holders = passages.filter((p) => p.notes.some((n) => n.label === label));
      expect(holders, label).toHaveLength(1);
      const block = book.chapters.flatMap((c) => c.sections.flatMap((s) => s.blocks)).find((b) => b.marks.some((m) => m.label === label))!;
      const at = block.marks.find((m) => m.label === label)!.at;
      const part = holders[0]!.paragraphs.find((x) => x.anchor === block.anchor)!;
      expect(at, label).toBeGreaterThanOrEqual(part.from);
    }
    expect(passages.some((p) => /[a-z][.,]Note:|[a-z][.,]?The Muhammadan/.test(p.text))).toBe(false);
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
    expect(pieces.map((p) => p.paragraphs.map((x) => [x.anchor, x.from]))).toEqual([[['ch1#p1', 0]], [['ch1#p1', long.indexOf('Sentence number 20 ')]], [['ch1#p1', long.indexOf('Sentence number 40 ')]]]);
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

describe('a short passage', () => {
  it('takes in the first sentences of a paragraph too long to join it whole', () => {
    const sentence = (i: number) => `Sentence number ${i} has exactly eight words here.`;
    const run = (from: number, n: number) => Array.from({ length: n }, (_, i) => sentence(from + i)).join(' ');
    // 72 words, then 200: whole they would be 272, past the most a passage stretches to; alone the first is under 80.
    const pieces = chunkPassages(parseBook(`# T\n\n## Chapter I: One\n\n${run(0, 9)}\n\n${run(9, 25)}\n`), DEFAULT_SIZES);
    expect(pieces.map((p) => p.words)).toEqual([80, 192]);
    expect(pieces[0]!.paragraphs.map((x) => [x.anchor, x.from, x.to])).toEqual([['ch1#p1', 0, run(0, 9).length], ['ch1#p2', 0, sentence(9).length]]);
    expect(pieces[1]!.paragraphs).toEqual([{ anchor: 'ch1#p2', at: 0, from: sentence(9).length + 1, to: run(9, 25).length }]);
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
