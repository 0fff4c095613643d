import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnglishBlock } from '../../common/search/english-block.ts';
import { loadWordVectors, readWordVectors, WORD_VECTOR_LIMIT } from '../../server/modules/search/fit/word-vectors.ts';
import { WordVectors } from '../../common/search/word-vectors.ts';
import { readBundle, writeBundle } from '../../server/platform/util/bundle-file.ts';
import { sharedWordVectors } from './engine-helpers.ts';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** A file in the package's layout: a header, the word list, then each word's 100 values, its norm and its rank. */
async function gloveFile(entries: Array<[string, number[]]>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'glove-'));
  const file = path.join(dir, 'vectors.json');
  const vectors = Object.fromEntries(entries.map(([word, v], rank) => [word, [...v, Math.hypot(...v), rank]]));
  await writeFile(file, JSON.stringify({ precision: 8, size: entries.length, dimensions: 100, words: entries.map(([w]) => w), vectors, unkVector: [] }));
  return file;
}

const vector = (seed: number) => Array.from({ length: 100 }, (_, i) => Math.round(Math.sin(seed * 7 + i) * 1e5) / 1e5);

describe('English word vectors (GloVe)', () => {
  it('reads the most frequent alphabetic words of the package file, in order, to the limit', async () => {
    const file = await gloveFile([
      ['the', vector(1)],
      [',', vector(2)],
      ['"quoted\\"', vector(3)],
      ['king', vector(4)],
      ['co-op', vector(5)],
      ['ruler', vector(6)],
      ['banana', vector(7)],
    ]);
    const table = await readWordVectors(file, 3);
    expect(table.words).toEqual(['the', 'king', 'ruler']);
    // Ranks count every entry, punctuation too: they estimate each word's frequency.
    expect(Array.from(table.ranks)).toEqual([0, 3, 5]);
    const words = new WordVectors(table);
    const king = new Float32Array(100);
    words.addTo(king, words.row('kings')!, 1);
    // int8 with a scale per word: within half a step of the original values.
    const original = vector(4);
    const step = Math.max(...original.map(Math.abs)) / 127;
    king.forEach((x, i) => expect(Math.abs(x - original[i]!)).toBeLessThanOrEqual(step / 2 + 1e-6));
    expect(words.row('banana')).toBeUndefined();
    expect(words.frequency(words.row('the')!)).toBeGreaterThan(words.frequency(words.row('ruler')!));
  });

  it('refuses a file whose entries are not 100 values, a norm and a rank', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'glove-'));
    const file = path.join(dir, 'bad.json');
    await writeFile(file, '{"words":["a"],"vectors":{"king":[0.1,0.2,3]}}');
    await expect(readWordVectors(file, 5)).rejects.toThrow(/"king" has 3 values/);
    // Nor does it read a file of another layout to its end, holding all of it.
    const other = path.join(dir, 'other.json');
    await writeFile(other, `{"vectors":{${'x'.repeat(3 << 20)}`);
    await expect(readWordVectors(other, 5)).rejects.toThrow(/no word vector can be read/);
  });

  it('caches the words it read beside the passage vectors, and reads them back from there', async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'word-cache-'));
    const first = await loadWordVectors({ cacheDir });
    expect(await readdir(cacheDir)).toEqual([`word-vectors-${WORD_VECTOR_LIMIT}.vectors`]);
    const cached = await readBundle(path.join(cacheDir, `word-vectors-${WORD_VECTOR_LIMIT}.vectors`));
    expect(cached?.bytes?.vectors?.length).toBe(WORD_VECTOR_LIMIT * 100);
    const again = await loadWordVectors({ cacheDir });
    expect(again.table.words).toEqual(first.table.words);
    expect(Array.from(again.table.vectors.subarray(0, 500))).toEqual(Array.from(first.table.vectors.subarray(0, 500)));
    // A damaged cache is not trusted: the table is read again (from this process's memory here) and cached anew.
    const file = path.join(cacheDir, `word-vectors-${WORD_VECTOR_LIMIT}.vectors`);
    await writeFile(file, 'garbage');
    const rebuilt = await loadWordVectors({ cacheDir });
    expect(rebuilt.row('king')).toBe(first.row('king'));
    expect((await readBundle(file))?.meta.words).toEqual(first.table.words);
  });

  it('serves the word vectors when their cache cannot be written, and says so', async () => {
    const notAFolder = path.join(await mkdtemp(path.join(tmpdir(), 'word-cache-')), 'file');
    await writeFile(notAFolder, 'a file where the cache folder should be');
    const errors: Error[] = [];
    const words = await loadWordVectors({ cacheDir: notAFolder, onCacheError: (error) => errors.push(error) });
    expect(words.row('king')).toBeDefined();
    expect(errors).toHaveLength(1);
  });

  it('keeps byte arrays beside float arrays in one cache file', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'bundle-')), 'mixed.vectors');
    await writeBundle(file, {
      meta: { a: 1 },
      arrays: { floats: Float32Array.from([0.5, -2, 3.25]) },
      bytes: { small: Int8Array.from([-128, 0, 127, 5, 6]) },
    });
    const read = await readBundle(file);
    expect(Array.from(read!.arrays.floats!)).toEqual([0.5, -2, 3.25]);
    expect(Array.from(read!.bytes!.small!)).toEqual([-128, 0, 127, 5, 6]);
  });
});

describe('the English block of a weight-free model', () => {
  it('brings a reader’s word near the book’s word of the same meaning, and leaves unknown words at zero', async () => {
    const words = await sharedWordVectors();
    const block = new EnglishBlock(words, { a: 1e-3 }, () => false);
    const king = block.embed('the king of the land');
    expect(dot(king, block.embed('a ruler'))).toBeGreaterThan(dot(king, block.embed('a banana')));
    expect(dot(block.embed('a newborn'), block.embed('the child'))).toBeGreaterThan(dot(block.embed('a newborn'), block.embed('the merchant')));
    expect(Math.hypot(...block.embed('qqqzz xxyyq'))).toBe(0);
  });

  it('takes out the direction all the passages share', async () => {
    const words = await sharedWordVectors();
    const passages = ['God is merciful to the soul', 'the soul longs for God', 'the heart of man turns to God', 'God sees the soul'];
    const plain = new EnglishBlock(words, { a: 1e-3 }, () => false);
    const common = plain.sharedDirection(passages);
    // It is the passages' shared direction: they lie far closer to it than to any other.
    const along = (direction: Float32Array) => passages.reduce((sum, p) => sum + Math.abs(dot(plain.embed(p), direction)), 0) / passages.length;
    const random = Float32Array.from({ length: 100 }, (_, i) => Math.sin(i * 12.9898) * 43758.5453 % 1);
    const norm = Math.hypot(...random);
    expect(along(common)).toBeGreaterThan(0.8);
    expect(along(random.map((x) => x / norm))).toBeLessThan(0.5);
    const block = new EnglishBlock(words, { a: 1e-3 }, () => false, common);
    for (const text of [...passages, 'patience in affliction']) expect(Math.abs(dot(block.embed(text), common))).toBeLessThan(1e-5);
  });
});
