import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookReply, SearchResult } from '../../contract/api-schemas.ts';
import { markOf, paragraphAt } from '../../common/search/paragraph-map.ts';
import { bookReply, parsePages } from '../../server/modules/book/book-reply.ts';
import { parseBook } from '../../server/modules/book/parse-book.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

describe('a passage offset in the book', () => {
  const parts = [
    { anchor: 'ch1#p3', at: 0, from: 40, to: 60 },
    { anchor: 'ch1#p4', at: 22, from: 0, to: 30 },
  ];
  it('is its paragraph and the offset in that paragraph’s text', () => {
    expect(paragraphAt(parts, 0)).toEqual({ anchor: 'ch1#p3', offset: 40 });
    expect(paragraphAt(parts, 19)).toEqual({ anchor: 'ch1#p3', offset: 59 });
    expect(paragraphAt(parts, 22)).toEqual({ anchor: 'ch1#p4', offset: 0 });
    expect(paragraphAt(parts, 30)).toEqual({ anchor: 'ch1#p4', offset: 8 });
    expect(markOf(parts, { start: 25, end: 35 })).toEqual({ anchor: 'ch1#p4', start: 3, end: 13 });
    expect(markOf(parts, { start: 5, end: 20 })).toEqual({ anchor: 'ch1#p3', start: 45, end: 60 });
  });
});

describe('the pages of the 1909 edition', () => {
  const book = parseBook('# T\n\n## Preface\n\nOne two. Three _four_ five.\n\nSix seven.\n\n## Chapter I: X\n\nEight nine.\n');
  it('give each paragraph the page it begins on and those beginning inside it', () => {
    const reply = bookReply(book, parsePages('page\tlocation\tat\n7\tpreface#p1\t\n8\tpreface#p1\tThree _four_\n9\tch1#p1\t\n'));
    const paragraphs = reply.parts.flatMap((p) => p.paragraphs);
    expect(paragraphs.map((p) => [p.page, p.pages])).toEqual([
      [7, [{ page: 8, at: 9 }]],
      [8, []],
      [9, []],
    ]);
    expect(paragraphs[0]!.emphasis).toEqual([[15, 19]]);
  });
  it('refuse a page whose words do not stand once in its paragraph', () => {
    expect(() => bookReply(book, parsePages('page\tlocation\tat\n7\tpreface#p1\tnowhere\n'))).toThrow(/p\. 7/);
    expect(() => bookReply(book, parsePages('page\tlocation\tat\n7\tpreface#p9\t\n'))).toThrow(/no paragraph preface#p9/);
  });
});

describe('GET /api/book', () => {
  let server: TestServer;
  let engine: RetrievalEngine;
  let book: BookReply;
  let etag: string;
  const paragraph = (anchor: string) => {
    const [slug, n] = anchor.split('#p');
    return book.parts.find((p) => p.slug === slug)!.paragraphs[Number(n) - 1]!;
  };

  beforeAll(async () => {
    engine = await corpusEngine();
    server = await startTestServer('embedded', { extra: { engine }, http: true });
    const reply = await server.api('/api/book');
    expect(reply.status).toBe(200);
    etag = reply.headers.get('etag')!;
    book = (await reply.json()) as BookReply;
  });
  afterAll(async () => {
    await server.close();
  });

  it('gives the whole book to anyone, without signing in: parts, paragraphs by address, notes, italics, pages', () => {
    expect(book.title).toBe('The Alchemy of Happiness');
    expect(book.edition).toMatch(/Claud Field.*1909/);
    expect(book.parts.map((p) => p.slug)).toEqual(['editorial-note', 'preface', 'introduction', 'ch1', 'ch2', 'ch3', 'ch4', 'ch5', 'ch6', 'ch7', 'ch8']);
    expect(book.parts.flatMap((p) => p.paragraphs)).toHaveLength(185);
    for (const part of book.parts) expect(part.paragraphs.map((p) => p.n)).toEqual(part.paragraphs.map((_, i) => i + 1));
    const ch4 = book.parts.find((p) => p.slug === 'ch4')!;
    expect(ch4.heading).toBe('Chapter IV: The Knowledge of the Next World');
    expect(ch4.notes).toEqual([{ label: 'ch4-1', text: 'The number of prophets according to Muhammadan tradition.' }]);
    const marked = ch4.paragraphs.find((p) => p.notes.length > 0)!;
    expect(marked.text.slice(0, marked.notes[0]!.at)).toMatch(/hundred and twenty-four thousand$/);
    expect(book.parts.flatMap((p) => p.paragraphs).some((p) => /\[\^|Note:|_\w/.test(p.text))).toBe(false);
    const preface1 = paragraph('preface#p1');
    expect(preface1.emphasis.map(([s, e]) => preface1.text.slice(s, e))).toContain('Encyclopædia Britannica');
    expect(preface1.page).toBe(7);
    expect(preface1.pages).toEqual([{ page: 8, at: preface1.text.indexOf('sceptic as he was by nature') }]);
    expect(paragraph('editorial-note#p1').page).toBeNull();
    expect(paragraph('ch8#p12').section).toBe('The Vision of God');
    expect(book.parts.flatMap((p) => p.paragraphs.flatMap((q) => [q.page ?? 0, ...q.pages.map((x) => x.page)])).filter((n) => n > 0).length).toBeGreaterThanOrEqual(130);
    expect(book.parts.flatMap((p) => p.paragraphs).find((p) => p.kind === 'verse')!.text).toMatch(/\n/);
  });

  it('is cached by a strong ETag: the same tag again gets a 304 without a body', async () => {
    expect(etag).toMatch(/^"[0-9a-f]{32}(-br|-gzip)?"$/);
    const first = await server.api('/api/book');
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(first.headers.get('etag')).toBe(etag);
    const again = await server.api('/api/book', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const other = await server.api('/api/book', { headers: { 'if-none-match': '"0123"' } });
    expect(other.status).toBe(200);
    const plain = await server.api('/api/book', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(book);
  });

  it("gives each search result the paragraph its passage begins in, and its marked sentence's offsets in the book's text", async () => {
    for (const query of ['what is the key to knowing God?', 'music and dancing on a festival day', 'Ibn Hanif and the two men lost in recollection', 'should a man divorce his wife?']) {
      const reply = await server.api('/api/search', { json: { query, models: 'both', top_k: 3 } });
      expect(reply.status).toBe(200);
      for (const r of (await reply.json()) as SearchResult[]) {
        const passage = engine.corpus.passages.find((p) => p.id === r.id)!;
        expect(r.anchor).toBe(passage.paragraphs[0]!.anchor);
        const { text } = paragraph(r.anchor);
        expect(text.slice(passage.paragraphs[0]!.from).startsWith(r.text.slice(0, 40))).toBe(true);
        expect(r.mark, r.id).toBeDefined();
        // The marked sentence is the same words in the passage and in the book's paragraph.
        expect(paragraph(r.mark!.anchor).text.slice(r.mark!.start, r.mark!.end)).toBe(r.text.slice(r.highlight!.start, r.highlight!.end));
      }
    }
  });
});
