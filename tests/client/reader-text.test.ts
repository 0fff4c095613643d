import { describe, expect, it } from 'vitest';
import { corpusBook } from '../../scripts/book-json.ts';
import type { BookParagraph } from '../../src/features/reading/book.ts';
import { citation, neighbours, partNameOfSlug, openingWords, pagesOf, paragraphOfHash, parseMark, pieces, sectionsOf } from '../../src/features/reading/reader-text.ts';
import { paragraphAt } from '../../src/features/reading/reading-place.ts';
import { parseReaderSettings } from '../../src/features/reading/reader-settings.ts';
import { readerHref } from '../../src/lib/search-result.ts';

const book = await corpusBook();
const part = (slug: string) => book.parts.find((p) => p.slug === slug)!;

describe("a result's mark and a paragraph's address", () => {
  it('reads ?mark=13:120-245 and #p12, and nothing else', () => {
    expect(parseMark('13:120-245')).toEqual({ n: 13, start: 120, end: 245 });
    for (const bad of [null, '', '13', '13:245-120', '0:1-2', 'x:1-2', '13:1-2 ']) expect(parseMark(bad), String(bad)).toBeNull();
    expect(paragraphOfHash('#p12')).toBe(12);
    expect(paragraphOfHash('#note-ch1-1')).toBeNull();
  });

  it('links a result to its marked sentence, else its paragraph, else its passage', () => {
    expect(readerHref({ id: 'ch4-3', anchor: 'ch4#p12', mark: { anchor: 'ch4#p13', start: 120, end: 245 } })).toBe('/read/ch4?mark=13:120-245#p13');
    expect(readerHref({ id: 'ch4-3', anchor: 'ch4#p12' })).toBe('/read/ch4#p12');
    expect(readerHref({ id: 'ch4-3' })).toBe('/read/ch4-3');
    expect(readerHref({})).toBeNull();
  });
});

describe('a paragraph as printed', () => {
  const paragraph: BookParagraph = {
    n: 1,
    section: null,
    kind: 'paragraph',
    text: 'He read the Ihya twice and slept.',
    emphasis: [[12, 16]],
    notes: [{ label: 'ch1-1', at: 22 }],
    page: 9,
    pages: [{ page: 10, at: 23 }],
  };

  it('cuts it where italics, the mark, a note or a page begin and end', () => {
    expect(pieces(paragraph, () => 1, { start: 3, end: 22 })).toEqual([
      { kind: 'text', text: 'He ', italic: false, marked: false },
      { kind: 'text', text: 'read the ', italic: false, marked: true },
      { kind: 'text', text: 'Ihya', italic: true, marked: true },
      { kind: 'text', text: ' twice', italic: false, marked: true },
      { kind: 'note', label: 'ch1-1', number: 1 },
      { kind: 'text', text: ' ', italic: false, marked: false },
      { kind: 'page', page: 10 },
      { kind: 'text', text: 'and slept.', italic: false, marked: false },
    ]);
    // Without a mark the words are the text itself, in order.
    const words = pieces(paragraph, () => 1).flatMap((p) => (p.kind === 'text' ? [p.text] : []));
    expect(words.join('')).toBe(paragraph.text);
  });

  it('keeps a mark past the end within the text', () => {
    const marked = pieces(paragraph, () => 1, { start: 30, end: 400 }).filter((p) => p.kind === 'text' && p.marked);
    expect(marked).toEqual([{ kind: 'text', text: 'pt.', italic: false, marked: true }]);
  });

  it('every paragraph of the book reads back whole, italics and all', () => {
    for (const p of book.parts) {
      for (const para of p.paragraphs) {
        const text = pieces(para, () => 1).flatMap((piece) => (piece.kind === 'text' ? [piece.text] : []));
        expect(text.join('')).toBe(para.text);
      }
    }
    const italic = pieces(part('preface').paragraphs[0]!, () => 1).filter((p) => p.kind === 'text' && p.italic);
    expect(italic.map((p) => (p.kind === 'text' ? p.text : ''))).toContain('Encyclopædia Britannica');
  });
});

describe('citing and moving on', () => {
  it('cites a paragraph with its chapter, number, page and link', () => {
    const ch4 = part('ch4');
    const p12 = ch4.paragraphs[11]!;
    const text = citation(book, ch4, p12, 'https://example.org');
    expect(text.startsWith(`${p12.text}\n\n— al-Ghazzali, The Alchemy of Happiness, tr. Claud Field (London: John Murray, 1909), ch. IV, ¶12, p`)).toBe(true);
    expect(text.endsWith('. <https://example.org/read/ch4#p12>')).toBe(true);
    expect(text).toContain(pagesOf(p12));
    expect(pagesOf({ ...p12, page: 63, pages: [] })).toBe('p. 63');
    expect(pagesOf({ ...p12, page: 63, pages: [{ page: 64, at: 10 }] })).toBe('pp. 63–64');
    expect(citation(book, part('preface'), part('preface').paragraphs[2]!, '')).toMatch(/, Preface, ¶3, p\. \d+\. <\/read\/preface#p3>$/);
  });

  it('knows the chapters either side, and a chapter’s sections', () => {
    expect(neighbours(book, 'ch4')).toMatchObject({ previous: { slug: 'ch3' }, next: { slug: 'ch5' } });
    expect(neighbours(book, 'editorial-note').previous).toBeNull();
    expect(neighbours(book, 'ch8').next).toBeNull();
    expect(sectionsOf(part('ch8')).map((s) => s.heading)).toEqual(['The Vision of God', 'The Signs of the Love of God']);
  });

  it('names a part from its slug alone, for the dashboard', () => {
    expect(partNameOfSlug('ch4')).toBe('Chapter IV');
    expect(partNameOfSlug('editorial-note')).toBe('Editorial note');
  });

  it('says a page in whole words for its link preview', () => {
    const said = openingWords(part('ch1').paragraphs[0]!.text);
    expect(said.length).toBeLessThanOrEqual(155);
    expect(said.endsWith('…')).toBe(true);
    expect(openingWords('Short.')).toBe('Short.');
  });

  it('finds the paragraph at the top of the screen', () => {
    expect(paragraphAt([{ n: 1, bottom: 10 }, { n: 2, bottom: 300 }, { n: 3, bottom: 900 }], 80)).toBe(2);
    expect(paragraphAt([{ n: 1, bottom: 10 }], 80)).toBe(1);
    expect(paragraphAt([], 80)).toBeNull();
  });

  it('keeps the page settings a reader chose, and ignores what is not one', () => {
    expect(parseReaderSettings('{"tone":"sepia","size":4}')).toEqual({ tone: 'sepia', size: 4 });
    expect(parseReaderSettings('{"tone":"pink","size":99}')).toEqual({ tone: null, size: 2 });
    expect(parseReaderSettings('nonsense')).toEqual({ tone: null, size: 2 });
  });
});
