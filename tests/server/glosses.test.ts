import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { glossesFor, glossFile, loadGlosses, passageTextHash, type GlossFile } from '../../server/corpus/glosses.ts';
import { CorpusError, loadCorpus } from '../../server/corpus/load-corpus.ts';
import { CORPUS_FILE } from './engine-helpers.ts';

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
});
