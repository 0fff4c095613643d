import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { glossesFor, glossFile, loadGlosses, passageTextHash, type GlossFile } from '../../server/modules/book/glosses.ts';
import { CorpusError, loadCorpus } from '../../server/modules/book/load-corpus.ts';
import { LSA_SETTINGS, SIF_SETTINGS } from '../../server/modules/search/models/lineup.ts';
import { lsaRecipe } from '../../server/modules/search/fit/lsa-fit.ts';
import { sifRecipe } from '../../server/modules/search/fit/sif-fit.ts';
import { corpusEngine, CORPUS_FILE } from './engine-helpers.ts';

const passages = [
  { id: 'ch1-1', text: 'Knowledge of self is the key.' },
  { id: 'ch1-2', text: 'The heart is a mirror.' },
];
const file = (entries: Record<string, { text: string; lines: string[] }>): GlossFile => ({
  about: 'test',
  passages: Object.fromEntries(Object.entries(entries).map(([id, { text, lines }]) => [id, { text_sha256: passageTextHash(text), lines }])),
});

describe('passage glosses', () => {
  it('attach to a passage only for the text they were written for', () => {
    const glosses = file({
      'ch1-1': { text: 'Knowledge of self is the key.', lines: ['Why know yourself?', 'Self-awareness first.'] },
      'ch1-2': { text: 'The heart is a mirror, once.', lines: ['The heart as a mirror.'] },
      'ch9-9': { text: 'No such passage.', lines: ['Nothing.'] },
    });
    expect(glossesFor(passages, glosses)).toEqual(['Why know yourself?\nSelf-awareness first.', '']);
    expect(glossesFor(passages, undefined)).toEqual(['', '']);
  });

  it('are read from glosses.json beside the book: none without one, a clear error for a broken one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'glosses-'));
    const book = path.join(dir, 'book.md');
    await copyFile(CORPUS_FILE, book);
    expect(glossFile(book)).toBe(path.join(dir, 'glosses.json'));
    expect(await loadGlosses(glossFile(book))).toBeUndefined();
    expect((await loadCorpus(book)).passages.every((p) => p.gloss === undefined)).toBe(true);
    await writeFile(glossFile(book), JSON.stringify({ about: 'x', passages: { 'ch1-1': { lines: 'not a list' } } }));
    await expect(loadGlosses(glossFile(book))).rejects.toThrow(/is not a gloss file/);
    await expect(loadCorpus(book)).rejects.toThrow(CorpusError);
  });

  it("ship with the book: every passage glossed in a few lines, for its text as it is, with their provenance", async () => {
    const shipped = JSON.parse(await readFile(glossFile(CORPUS_FILE), 'utf8')) as GlossFile;
    expect(shipped.about).toMatch(/never from evaluation questions/);
    const corpus = await loadCorpus(CORPUS_FILE);
    expect(Object.keys(shipped.passages).sort()).toEqual(corpus.passages.map((p) => p.id).sort());
    for (const p of corpus.passages) {
      const lines = p.gloss?.split('\n') ?? [];
      expect(lines.length, p.id).toBeGreaterThanOrEqual(2);
      expect(lines.length, p.id).toBeLessThanOrEqual(6);
    }
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
    const passage = engine.corpus.passages.find((p) => p.id === 'ch2-10')!;
    // The book says a man "ceases to take any interest in worldly matters"; its gloss, burnout.
    expect(passage.text).not.toMatch(/burnout/i);
    expect(passage.gloss).toMatch(/burnout/);
    const results = await engine.search('can burnout have a spiritual meaning?', 1, ['lsa-96', 'sif-150']);
    expect(results.map((r) => [r.model, r.id])).toEqual([
      ['lsa-96', 'ch2-10'],
      ['sif-150', 'ch2-10'],
    ]);
    for (const r of results) {
      expect(r.text).toBe(passage.text);
      expect(r.highlight!.end).toBeLessThanOrEqual(passage.text.length);
    }
  });
});
