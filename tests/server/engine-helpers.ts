import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentProgress } from '../../server/common/progress.ts';
import { startRetrieval, type RetrievalSettings } from '../../server/search/start-retrieval.ts';
import { RetrievalEngine } from '../../server/search/retrieval-engine.ts';
import { loadWordVectors } from '../../server/models/word-vectors.ts';
import type { WordVectors } from '../../common/search/word-vectors.ts';

import { CORPUS_FILE } from '../repo-files.ts';

export { BGE_TOKENIZER, CORPUS_FILE } from '../repo-files.ts';

export const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function settingsFor(overrides: Partial<RetrievalSettings> = {}): Promise<RetrievalSettings> {
  return {
    corpusFile: CORPUS_FILE,
    dataDir: await mkdtemp(path.join(tmpdir(), 'engine-')),
    modelsDir: await mkdtemp(path.join(tmpdir(), 'no-models-')),
    modelLineup: 'auto',
    bgeModel: 'Xenova/bge-small-en-v1.5',
    uaeModel: 'WhereIsAI/UAE-Large-V1',
    modelDtype: 'q8',
    ...overrides,
  };
}

/** The weight-free engine on the real book. */
export async function corpusEngine(overrides: Partial<RetrievalSettings> = {}): Promise<RetrievalEngine> {
  return startRetrieval(await settingsFor({ modelLineup: 'corpus', ...overrides }), quietLog, silentProgress);
}

/**
 * The weight-free engine with its two vector models only (LSA and SIF), so that every search of
 * both draws that pair: for tests written around their two first passages.
 */
export async function vectorPairEngine(): Promise<RetrievalEngine> {
  const pool = await corpusEngine();
  return new RetrievalEngine(pool.corpus, pool.kind, pool.entries.filter((entry) => !('keyword' in entry)));
}

let wordVectors: Promise<WordVectors> | undefined;

/** GloVe's word vectors as the weight-free models use them, read once per test file into a temporary cache. */
export function sharedWordVectors(): Promise<WordVectors> {
  wordVectors ??= mkdtemp(path.join(tmpdir(), 'word-vectors-')).then((cacheDir) => loadWordVectors({ cacheDir }));
  return wordVectors;
}
