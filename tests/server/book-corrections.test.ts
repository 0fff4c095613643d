// Starts no server, store or engine: it does not wait for the run's fixtures.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCorrections, paragraphLines, parseCorrections } from '../../scripts/book-corrections.ts';
import { parseBook } from '../../server/modules/book/parse-book.ts';
import { CORPUS_FILE } from '../repo-files.ts';

const corpusDir = path.dirname(CORPUS_FILE);
const SCAN = readFileSync(path.join(corpusDir, 'source/alchemy-of-happiness.md'), 'utf8');
const BOOK = readFileSync(CORPUS_FILE, 'utf8');
const LIST = readFileSync(path.join(corpusDir, 'corrections.tsv'), 'utf8');

describe('the proofread book', () => {
  it('is exactly the scan with every listed correction applied', () => {
    expect(applyCorrections(SCAN, parseCorrections(LIST))).toBe(BOOK);
  });

  it('keeps none of the scanning errors readers reported', () => {
    const reported = [
      'closing his eves', 'Even thug shall children', 'religious. seclusion', 'grossest. presumption',
      'with. whom', 'the .supply of oil', 'be is guilty', 'whole, series',
    ];
    const inText = (text: string) => reported.filter((error) => text.replace(/\s+/g, ' ').includes(error));
    expect(inText(SCAN)).toEqual(reported);
    expect(inText(BOOK)).toEqual([]);
  });

  it('counts the same paragraphs as the reader does', () => {
    const where = [...paragraphLines(BOOK).keys()].filter((k) => /#p\d+$/.test(k));
    const book = parseBook(BOOK);
    const expected = book.chapters.flatMap((c) => c.sections.flatMap((s) => s.blocks).map((_, i) => `${c.slug}#p${i + 1}`));
    expect(where).toEqual(expected);
  });
});

describe('a correction', () => {
  const md = '# T\n\n## Chapter II: A\n\nThe eves of the heart.\n\nHe shut his eves.\n\n### Notes\n\n[^ch2-1]: A note ,here.\n';
  const row = (location: string, before: string, after: string) => `${location}\t${before}\t${after}\tmisread`;
  const list = (...rows: string[]) => parseCorrections(['location\tbefore\tafter\twhy', ...rows].join('\n'));

  it('changes only its own paragraph, footnotes included', () => {
    const out = applyCorrections(md, list(row('ch2#p2', 'his eves', 'his eyes'), row('ch2#note-ch2-1', ' ,here', ', here')));
    expect(out).toContain('The eves of the heart.');
    expect(out).toContain('He shut his eyes.');
    expect(out).toContain('[^ch2-1]: A note, here.');
  });

  it('is refused where its words are not there once, or its paragraph is not there', () => {
    expect(() => applyCorrections(md, list(row('ch2#p1', 'his eves', 'his eyes')))).toThrow(/stands 0 times in ch2#p1/);
    expect(() => applyCorrections(md + '\nThe eves, the eves.\n', list(row('ch2#p3', 'eves', 'eyes')))).toThrow(/no paragraph ch2#p3/);
    expect(() => applyCorrections('## Preface\n\nthe eves, the eves\n', list(row('preface#p1', 'eves', 'eyes')))).toThrow(/2 times/);
    expect(() => applyCorrections(md, list(row('ch9#p1', 'x', 'y')))).toThrow(/no paragraph ch9#p1/);
  });

  it('must say why, and name a paragraph', () => {
    expect(() => parseCorrections('location\tbefore\tafter\twhy\nch2#p1\ta\tb\t')).toThrow(/line 2: no reason/);
    expect(() => parseCorrections('location\tbefore\tafter\twhy\nchapter two\ta\tb\tc')).toThrow(/not a paragraph's address/);
    expect(() => parseCorrections('before\tafter\n')).toThrow(/header/);
  });
});

describe("the 1909 edition's pages", () => {
  const rows = readFileSync(path.join(corpusDir, 'pages.tsv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'));
  const where = paragraphLines(BOOK);
  const lines = BOOK.split('\n');

  it('run from p. 7 to p. 136 with none missing, each at a place that stands once in its paragraph', () => {
    expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: 130 }, (_, i) => i + 7));
    for (const [page, location, at] of rows) {
      const span = where.get(location!);
      expect(span, `p. ${page}: ${location}`).toBeDefined();
      const text = lines.slice(span![0], span![1] + 1).join('\n');
      if (at) expect(text.split(at).length - 1, `p. ${page}: "${at}"`).toBe(1);
    }
  });
});
