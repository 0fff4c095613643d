import path from 'node:path';
import { loadCorpus } from '../book/index.ts';
import { loadOrBuildIndex, type ModelSource } from './fit/build-index.ts';
import { terminalProgress, type Progress } from '../../platform/util/progress.ts';
import { OPERATOR_DETAIL } from '../../platform/log.ts';
import { armOrder, chooseLineup, corpusLineup, corpusLineupNeedsWords, neuralSpecs, servesKeywordArm, type NeuralLineupSettings } from './models/lineup.ts';
import { KEYWORD_ARM, KeywordIndex } from './models/keyword-arm.ts';
import { loadWordVectors } from './fit/word-vectors.ts';
import type { WordVectors } from '../../../common/search/word-vectors.ts';
import { RetrievalEngine, type LineupEntry } from './retrieval-engine.ts';

export interface RetrievalSettings extends NeuralLineupSettings {
  corpusFile: string;
  dataDir: string;
  modelLineup: 'auto' | 'neural' | 'corpus';
}

/** What a start logs to: pino's logger, or the index builder thread's report (build-indexes-worker.ts). */
export interface RetrievalLog {
  info(fields: { model?: string; fromCache?: boolean; ms?: number } & Record<string, unknown>, msg: string): void;
  warn(fields: { err?: unknown }, msg: string): void;
  error(fields: { err?: unknown; model?: string }, msg: string): void;
}

/**
 * Reads the book, chooses the lineup, and loads or builds each model's passage index: the pool
 * of arms the arena draws from. The weight-free models and the keyword arm (BM25) are always in
 * it; BGE and UAE join them whenever their weights are present (the neural lineup). A model that
 * fails to load is kept in the lineup as unavailable (search answers 503 for it, and a `both`
 * search never draws it).
 */
export async function startRetrieval(
  settings: RetrievalSettings,
  log: RetrievalLog,
  progress: (label: string, total: number) => Progress = terminalProgress,
): Promise<RetrievalEngine> {
  const corpus = await loadCorpus(settings.corpusFile);
  const kind = chooseLineup(settings.modelLineup, settings);
  log.info(
    { lineup: kind, passages: corpus.passages.length, chapters: corpus.chapters.length },
    kind === 'neural'
      ? 'model lineup: neural (BGE and UAE weights found), beside the weight-free models and BM25'
      : 'model lineup: corpus (weight-free models fitted on the book, and BM25)',
  );
  const cacheDir = path.join(settings.dataDir, 'vectors');
  const entries: LineupEntry[] = [];

  // General English word vectors for the weight-free models: read from their package once, then
  // from the cache beside the passage vectors. Without them those models cannot be served, and
  // say so, as a model that fails to load does.
  let words: WordVectors | undefined;
  let wordsError: Error | undefined;
  if (corpusLineupNeedsWords(settings.arenaArms)) {
    try {
      words = await loadWordVectors({
        cacheDir,
        progress,
        onCacheError: (error) => log.warn({ err: error }, 'the English word vectors could not be cached; the next start reads them again'),
      });
    } catch (error) {
      wordsError = error as Error;
    }
  }
  type Source = { describe: { id: string; family: string; name: string; dim: number }; load: () => Promise<ModelSource> };
  const neural: Source[] =
    kind === 'neural'
      ? neuralSpecs(settings).map((spec) => {
          const name = spec.repo.split('/').pop()!;
          return {
            describe: { id: name.toLowerCase(), family: spec.family, name, dim: 0 },
            load: async () => {
              // transformers.js and onnxruntime cost ~170 MB: loaded only for the neural lineup.
              const { loadNeuralModel } = await import('./models/neural.ts');
              return { kind: 'neural', model: await loadNeuralModel(spec, { modelsDir: settings.modelsDir, dtype: settings.modelDtype }) };
            },
          };
        })
      : [];
  const weightFree: Source[] = corpusLineup({ words }, settings.arenaArms).map((recipe) => ({
    describe: { id: recipe.id, family: recipe.family, name: recipe.name, dim: 0 },
    load: async () => {
      if (wordsError) throw wordsError;
      return { kind: 'corpus', recipe };
    },
  }));

  for (const source of [...neural, ...weightFree]) {
    try {
      const started = performance.now();
      const { index, fromCache } = await loadOrBuildIndex(await source.load(), corpus.passages, {
        cacheDir,
        corpusHash: corpus.hash,
        progress,
      });
      const m = index.model;
      entries.push({ id: m.id, family: m.family, name: m.name, dim: m.dim, index });
      log.info(
        { ...OPERATOR_DETAIL, model: m.id, dim: m.dim, fromCache, ms: Math.round(performance.now() - started) },
        fromCache ? `index for ${m.id} loaded from cache` : `index for ${m.id} built`,
      );
    } catch (error) {
      log.error({ err: error, model: source.describe.id }, `model ${source.describe.id} cannot be served`);
      entries.push({ ...source.describe, error: (error as Error).message });
    }
  }
  // Words, not meaning: the keyword arm needs no fit and nothing cached (MiniSearch indexes the
  // book in ~70 ms), so it is not among the models whose cached indexes are reported.
  if (servesKeywordArm(settings.arenaArms)) {
    const started = performance.now();
    const keyword = new KeywordIndex(corpus.passages.map((p) => p.text));
    entries.push({ ...KEYWORD_ARM, dim: keyword.vocabulary, keyword });
    log.info({ ...OPERATOR_DETAIL, keyword: KEYWORD_ARM.id, terms: keyword.vocabulary, ms: Math.round(performance.now() - started) }, `keyword index for ${KEYWORD_ARM.id} built`);
  }
  // The pool in the configured order (the neural models first, as before): the draw breaks a tie in the pool's order.
  const order = armOrder(settings.arenaArms);
  const place = (id: string) => (order.includes(id) ? order.indexOf(id) : -1);
  entries.sort((a, b) => place(a.id) - place(b.id));
  return new RetrievalEngine(corpus, kind, entries);
}
