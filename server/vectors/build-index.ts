import path from 'node:path';
import type { CorpusModelRecipe, EmbeddingModel } from '../models/types.ts';
import { readBundle, writeBundle } from '../common/bundle-file.ts';
import { sentenceSpans } from '../corpus/chunk-passages.ts';
import { PassageIndex, stack, type SentenceVectors } from './passage-index.ts';
import { silentProgress, type Progress } from '../common/progress.ts';

/** Where a model comes from: fitted on the corpus, or loaded (neural) and only asked to embed. */
export type ModelSource = { kind: 'corpus'; recipe: CorpusModelRecipe } | { kind: 'neural'; model: EmbeddingModel };

export interface IndexBuild {
  index: PassageIndex;
  fromCache: boolean;
}

export interface BuildOptions {
  cacheDir: string;
  /** Hash of the passages' ids and texts: a changed book or chunking invalidates the cache. */
  corpusHash: string;
  progress?: (label: string, total: number) => Progress;
}

function sourceId(source: ModelSource): { id: string; version: string } {
  return source.kind === 'corpus' ? source.recipe : source.model;
}

/** Cache file per model id: a changed corpus or model rebuilds that model only. */
export function cacheFile(cacheDir: string, modelId: string): string {
  return path.join(cacheDir, `${modelId.replace(/[^a-zA-Z0-9._-]/g, '_')}.vectors`);
}

/**
 * The model's passage index: loaded from the cache when its corpus hash and model version
 * match, else fitted/embedded (with progress on the terminal) and cached.
 */
export async function loadOrBuildIndex(source: ModelSource, passages: string[], options: BuildOptions): Promise<IndexBuild> {
  const { id, version } = sourceId(source);
  const file = cacheFile(options.cacheDir, id);
  const cached = await readBundle(file);
  const valid = cached && cached.meta.corpusHash === options.corpusHash && cached.meta.version === version;
  if (valid && cached.arrays.passages && cached.arrays.sentenceVectors) {
    const { passages: vectors, sentenceFirst, sentenceSpans: spans, sentenceVectors, ...state } = cached.arrays;
    const model =
      source.kind === 'corpus'
        ? source.recipe.restore({ meta: cached.meta.state as Record<string, unknown>, arrays: state })
        : source.model;
    return { index: new PassageIndex(model, vectors, { first: sentenceFirst!, spans: spans!, vectors: sentenceVectors }), fromCache: true };
  }

  const progress = (options.progress ?? silentProgress)(`Embedding the book with ${id}`, passages.length);
  let model: EmbeddingModel;
  let stateMeta: Record<string, unknown> = {};
  let stateArrays: Record<string, Float32Array> = {};
  if (source.kind === 'corpus') {
    const state = source.recipe.fit(passages);
    model = source.recipe.restore(state);
    stateMeta = state.meta;
    stateArrays = state.arrays;
  } else {
    model = source.model;
  }
  const vectors = stack(await model.embedPassages(passages, (done) => progress.update(done)), model.dim);
  progress.finish(`${passages.length} passages, ${model.dim} dimensions`);
  const sentences = await embedSentences(model, passages, options);
  await writeBundle(file, {
    meta: { corpusHash: options.corpusHash, version, state: stateMeta },
    arrays: { ...stateArrays, passages: vectors, sentenceFirst: sentences.first, sentenceSpans: sentences.spans, sentenceVectors: sentences.vectors },
  });
  return { index: new PassageIndex(model, vectors, sentences), fromCache: false };
}

/** Every passage's sentences, embedded as passages by the same model (for "why this passage"). */
async function embedSentences(model: EmbeddingModel, passages: string[], options: BuildOptions): Promise<SentenceVectors> {
  const spans = passages.map((text) => sentenceSpans(text));
  const texts = passages.flatMap((text, p) => spans[p]!.map(([start, end]) => text.slice(start, end)));
  const progress = (options.progress ?? silentProgress)(`Embedding the book's sentences with ${model.id}`, texts.length);
  const vectors = stack(await model.embedPassages(texts, (done) => progress.update(done)), model.dim);
  progress.finish(`${texts.length} sentences`);
  const first = new Float32Array(passages.length + 1);
  spans.forEach((list, p) => (first[p + 1] = first[p]! + list.length));
  return { first, spans: Float32Array.from(spans.flat(2)), vectors };
}
