import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { glossesFor, glossFile, loadGlosses, textHash, type GlossFile } from '../../server/modules/book/glosses.ts';
import { bookParagraphs } from '../../server/modules/book/book-reply.ts';
import { CorpusError, loadCorpus } from '../../server/modules/book/load-corpus.ts';
import { LSA_SETTINGS, SIF_SETTINGS } from '../../server/modules/search/models/lineup.ts';
import { lsaRecipe } from '../../server/modules/search/fit/lsa-fit.ts';
import { sifRecipe } from '../../server/modules/search/fit/sif-fit.ts';
import { corpusEngine, CORPUS_FILE } from './engine-helpers.ts';

const paragraphs = new Map([
  ['ch1#p1', 'Knowledge of self is the key.'],
  ['ch1#p2', 'The heart is a mirror.'],
  ['ch1#p3', 'The body is its kingdom.'],
]);
const passages = [{ paragraphs: [{ anchor: 'ch1#p1' }] }, { paragraphs: [{ anchor: 'ch1#p2' }] }, { paragraphs: [{ anchor: 'ch1#p1' }, { anchor: 'ch1#p3' }] }];
const textOf = (anchor: string) => paragraphs.get(anchor);
const file = (entries: Record<string, { text: string; lines: string[] }>): GlossFile => ({
  about: 'test',
  paragraphs: Object.fromEntries(Object.entries(entries).map(([address, { text, lines }]) => [address, { text_sha256: textHash(text), lines }])),
});

describe('paragraph glosses', () => {
  it("attach to a paragraph only for the text they were written for; a passage's gloss is its paragraphs' lines", () => {
    const glosses = file({
      'ch1#p1': { text: 'Knowledge of self is the key.', lines: ['Why know yourself?', 'Self-awareness first.'] },
      'ch1#p2': { text: 'The heart is a mirror, once.', lines: ['The heart as a mirror.'] },
      'ch1#p3': { text: 'The body is its kingdom.', lines: ['The body as a kingdom.', 'Why know yourself?'] },
      'ch9#p9': { text: 'No such paragraph.', lines: ['Nothing.'] },
    });
    expect(glossesFor(passages, textOf, glosses)).toEqual([
      'Why know yourself?\nSelf-awareness first.',
      '',
      'Why know yourself?\nSelf-awareness first.\nThe body as a kingdom.',
    ]);
    expect(glossesFor(passages, textOf, undefined)).toEqual(['', '', '']);
  });

  it('are read from glosses.json beside the book: none without one, a clear error for a broken one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'glosses-'));
    const book = path.join(dir, 'book.md');
    await copyFile(CORPUS_FILE, book);
    expect(glossFile(book)).toBe(path.join(dir, 'glosses.json'));
    expect(await loadGlosses(glossFile(book))).toBeUndefined();
    expect((await loadCorpus(book)).passages.every((p) => p.gloss === undefined)).toBe(true);
    await writeFile(glossFile(book), JSON.stringify({ about: 'x', paragraphs: { 'ch1#p1': { lines: 'not a list' } } }));
    await expect(loadGlosses(glossFile(book))).rejects.toThrow(/is not a gloss file/);
    await expect(loadCorpus(book)).rejects.toThrow(CorpusError);
  });

  it('ship with the book: every passage glossed, every gloss for its paragraph as it is, with their provenance', async () => {
    const shipped = JSON.parse(await readFile(glossFile(CORPUS_FILE), 'utf8')) as GlossFile;
    expect(shipped.about).toMatch(/never from evaluation questions/);
    const texts = new Map((await bookParagraphs(CORPUS_FILE)).map((p) => [p.anchor, p.text]));
    for (const [address, gloss] of Object.entries(shipped.paragraphs)) {
      expect(gloss.text_sha256, address).toBe(textHash(texts.get(address) ?? ''));
    }
    const corpus = await loadCorpus(CORPUS_FILE);
    for (const p of corpus.passages) expect(p.gloss?.split('\n').length ?? 0, p.id).toBeGreaterThanOrEqual(2);
  });

  it('kept every line written for the first chunking, and glossed nearly every paragraph in today’s words', async () => {
    const shipped = JSON.parse(await readFile(glossFile(CORPUS_FILE), 'utf8')) as GlossFile;
    const v1 = JSON.parse(await readFile(path.join(path.dirname(CORPUS_FILE), 'passages-v1.json'), 'utf8')) as {
      passages: Record<string, { paragraphs: string[] }>;
    };
    // 668 lines were written for the 173 passages of chunking 1, 578 more by paragraph, then 360
    // situations of daily life (two for each glossed passage); none is lost or doubled.
    const lines = Object.values(shipped.paragraphs).flatMap((g) => g.lines);
    expect(lines).toHaveLength(668 + 578 + 360);
    for (const g of Object.values(shipped.paragraphs)) expect(new Set(g.lines).size, g.lines[0]).toBe(g.lines.length);
    const firsts = new Set(Object.values(v1.passages).map((p) => p.paragraphs[0]!));
    expect([...firsts].every((address) => (shipped.paragraphs[address]?.lines.length ?? 0) > 0)).toBe(true);
    expect(Object.keys(shipped.paragraphs).length).toBeGreaterThanOrEqual(180);
    expect(shipped.paragraphs['ch2#p10']!.lines.some((line) => /burnout/.test(line))).toBe(true);
  });

  it("are named in both models' names and versions, with their weight", () => {
    for (const recipe of [(o: object) => lsaRecipe({ ...LSA_SETTINGS, ...o }), (o: object) => sifRecipe({ ...SIF_SETTINGS, ...o })]) {
      expect(recipe({}).name).toMatch(/\+thesaurus\+gloss$/);
      expect(recipe({}).version).toContain(':gloss-1');
      expect(recipe({ gloss: 0.5 }).version).toContain(':gloss-0.5');
      expect(recipe({ gloss: 0 }).name).not.toContain('gloss');
      expect(recipe({ gloss: 0 }).version).not.toContain('gloss');
    }
  });

  it("let a reader's word of today that only a gloss uses find its passage, whose text and mark stay the book's", async () => {
    const engine = await corpusEngine();
    const passage = engine.corpus.passages.find((p) => p.paragraphs.some((x) => x.anchor === 'ch2#p10'))!;
    // The book says a man "ceases to take any interest in worldly matters"; its gloss, burnout.
    expect(passage.text).not.toMatch(/burnout/i);
    expect(passage.gloss).toMatch(/burnout/);
    const results = await engine.search('can burnout have a spiritual meaning?', 1, ['lsa-96', 'sif-150']);
    expect(results.map((r) => [r.model, r.id])).toEqual([
      ['lsa-96', passage.id],
      ['sif-150', passage.id],
    ]);
    for (const r of results) {
      expect(r.text).toBe(passage.text);
      expect(r.highlight!.end).toBeLessThanOrEqual(passage.text.length);
    }
  });
});
