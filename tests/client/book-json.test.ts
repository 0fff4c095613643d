import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { corpusBook, inlineText } from '../../scripts/book-json.ts';
import { paragraphLines } from '../../scripts/book-corrections.ts';
import { parseBook } from '../../server/modules/book/parse-book.ts';

const book = corpusBook();
const markdown = readFileSync('corpus/alchemy-of-happiness.md', 'utf8');

test('the book fixture counts and prints paragraphs as the server and the corrections do', () => {
  const parsed = parseBook(markdown);
  expect(book.parts.map((p) => p.slug)).toEqual(parsed.chapters.map((c) => c.slug));
  for (const [i, part] of book.parts.entries()) {
    const blocks = parsed.chapters[i]!.sections.flatMap((s) => s.blocks.map((b) => ({ section: s.heading, kind: b.kind, text: b.text })));
    expect(part.paragraphs.map((p) => ({ section: p.section, kind: p.kind, text: p.text }))).toEqual(blocks);
    for (const note of part.notes) expect(note.text).toBe(parsed.footnotes.get(note.label));
  }
  const addresses = [...paragraphLines(markdown).keys()].filter((k) => /#p\d+$/.test(k));
  expect(book.parts.flatMap((p) => p.paragraphs.map((para) => `${p.slug}#p${para.n}`))).toEqual(addresses);
  // 11 parts; Chapter IV's paragraphs have their pages.
  expect(book.parts).toHaveLength(11);
  expect(book.parts.find((p) => p.slug === 'ch4')!.paragraphs.every((p) => p.page !== null)).toBe(true);
});

test('italics and footnote marks become offsets into the printed text', () => {
  const { text, emphasis, notes } = inlineText('calls him “the most original.”[^pref-1] The _Encyclopædia Britannica_ devotes');
  expect(text).toBe('calls him “the most original.” The Encyclopædia Britannica devotes');
  expect(emphasis.map(([s, e]) => text.slice(s, e))).toEqual(['Encyclopædia Britannica']);
  expect(notes).toEqual([{ label: 'pref-1', at: 'calls him “the most original.”'.length }]);
  // A word joined by underscores is not italic.
  expect(inlineText('snake_case words').emphasis).toEqual([]);
});
