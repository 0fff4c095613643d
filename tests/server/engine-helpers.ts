import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentProgress } from '../../server/platform/util/progress.ts';
import { startRetrieval, type RetrievalSettings } from '../../server/modules/search/start-retrieval.ts';
import { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { loadWordVectors } from '../../server/modules/search/fit/word-vectors.ts';
import type { WordVectors } from '../../common/search/word-vectors.ts';

import { CORPUS_FILE } from '../repo-files.ts';
import { prefittedDataDir } from '../run-fixtures.ts';

export { BGE_TOKENIZER, CORPUS_FILE } from '../repo-files.ts';

export const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** An engine's settings, in a new, empty data folder (a first start) unless `overrides` name one. */
export async function settingsFor(overrides: Partial<RetrievalSettings> = {}): Promise<RetrievalSettings> {
  return {
    corpusFile: CORPUS_FILE,
    dataDir: overrides.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'engine-'))),
    modelsDir: await mkdtemp(path.join(tmpdir(), 'no-models-')),
    modelLineup: 'auto',
    bgeModel: 'Xenova/bge-small-en-v1.5',
    uaeModel: 'WhereIsAI/UAE-Large-V1',
    modelDtype: 'q8',
    ...overrides,
  };
}

/**
 * The weight-free engine on the real book, started as on a restart: in a data folder of its own
 * holding the models the run fitted once (tests/run-fixtures.ts), which it loads.
 */
export async function corpusEngine(overrides: Partial<RetrievalSettings> = {}): Promise<RetrievalEngine> {
  const dataDir = overrides.dataDir ?? (await prefittedDataDir('engine-'));
  return startRetrieval(await settingsFor({ modelLineup: 'corpus', dataDir, ...overrides }), quietLog, silentProgress);
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

/** GloVe's word vectors as the weight-free models use them, once per test file, from a copy of the run's cache. */
export function sharedWordVectors(): Promise<WordVectors> {
  wordVectors ??= prefittedDataDir('word-vectors-').then((dataDir) => loadWordVectors({ cacheDir: path.join(dataDir, 'vectors') }));
  return wordVectors;
}
