import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CorpusModelRecipe, EmbeddingModel } from '../../../../common/search/types.ts';
import { readBundle, writeBundle } from '../../../platform/util/bundle-file.ts';
import { sentenceSpans } from '../../book/index.ts';
import { PassageIndex, stack, type SentenceVectors } from '../../../../common/search/passage-index.ts';
import { silentProgress, type Progress } from '../../../platform/util/progress.ts';
import { normalise } from '../../../../common/search/linalg.ts';

/** Where a model comes from: fitted on the corpus, or loaded (neural) and only asked to embed. */
export type ModelSource = { kind: 'corpus'; recipe: CorpusModelRecipe } | { kind: 'neural'; model: EmbeddingModel };

/** What of a passage is indexed: its text, and its gloss (lines in a modern reader's words; absent or '' for none). */
export interface IndexedPassage {
  text: string;
  gloss?: string;
}

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

function sourceOf(source: ModelSource): { id: string; version: string; glossWeight?: number } {
  return source.kind === 'corpus' ? source.recipe : source.model;
}

/** Cache file per model id: a changed corpus or model rebuilds that model only. */
export function cacheFile(cacheDir: string, modelId: string): string {
  return path.join(cacheDir, `${modelId.replace(/[^a-zA-Z0-9._-]/g, '_')}.vectors`);
}

const fittedTexts = { plain: new WeakMap<IndexedPassage[], string[]>(), glossed: new WeakMap<IndexedPassage[], string[]>() };

/**
 * What a model is fitted on: each passage's text, with its gloss after it for a model that weighs
 * glosses. The same array for the same passages, so that the models of a lineup share one
 * lexicon's fit (lexicon.ts keeps the last, for the same array of texts).
 */
function fitTexts(passages: IndexedPassage[], glossed: boolean): string[] {
  const cache = glossed ? fittedTexts.glossed : fittedTexts.plain;
  let texts = cache.get(passages);
  if (!texts) cache.set(passages, (texts = passages.map((p) => (glossed && p.gloss ? `${p.text}\n\n${p.gloss}` : p.text))));
  return texts;
}

/** A gloss's lines, the unit its passage is also ranked by (as a sentence is). */
export const glossLines = (gloss: string | undefined): string[] => (gloss ?? '').split('\n').filter((line) => line.trim() !== '');

/**
 * The model's passage index: loaded from the cache when its corpus hash and model version
 * match, else fitted/embedded (with progress on the terminal) and cached. A model with a gloss
 * weight is fitted on each passage's text and gloss together, a passage's vector is its text's
 * plus that weight times its gloss's, and its gloss's lines are ranked beside its sentences; the
 * glosses are then part of the cache's key.
 */
export async function loadOrBuildIndex(source: ModelSource, passages: IndexedPassage[], options: BuildOptions): Promise<IndexBuild> {
  const { id, version, glossWeight = 0 } = sourceOf(source);
  const glossed = glossWeight > 0;
  const corpusHash = glossed
    ? `${options.corpusHash}:glosses-${createHash('sha256').update(JSON.stringify(passages.map((p) => p.gloss ?? ''))).digest('hex')}`
    : options.corpusHash;
  const file = cacheFile(options.cacheDir, id);
  const cached = await readBundle(file);
  const valid = cached && cached.meta.corpusHash === corpusHash && cached.meta.version === version;
  if (valid && cached.arrays.passages && cached.arrays.sentenceVectors && (!glossed || cached.arrays.glossLineVectors)) {
    const { passages: vectors, sentenceFirst, sentenceSpans: spans, sentenceVectors, glossLineFirst, glossLineVectors, ...state } = cached.arrays;
    const model =
      source.kind === 'corpus'
        ? source.recipe.restore({ meta: cached.meta.state as Record<string, unknown>, arrays: state })
        : source.model;
    const sentences: SentenceVectors = { first: sentenceFirst!, spans: spans!, vectors: sentenceVectors };
    if (glossed) sentences.glossLines = { first: glossLineFirst!, vectors: glossLineVectors! };
    return { index: new PassageIndex(model, vectors, sentences), fromCache: true };
  }

  const texts = fitTexts(passages, false);
  const progress = (options.progress ?? silentProgress)(`Embedding the book with ${id}`, passages.length);
  let model: EmbeddingModel;
  let stateMeta: Record<string, unknown> = {};
  let stateArrays: Record<string, Float32Array> = {};
  if (source.kind === 'corpus') {
    const state = source.recipe.fit(fitTexts(passages, glossed));
    model = source.recipe.restore(state);
    stateMeta = state.meta;
    stateArrays = state.arrays;
  } else {
    model = source.model;
  }
  let embedded = await model.embedPassages(texts, (done) => progress.update(done));
  if (glossed) {
    const glosses = await model.embedPassages(passages.map((p) => p.gloss ?? ''));
    embedded = embedded.map((vector, p) => normalise(vector.map((x, c) => x + glossWeight * glosses[p]![c]!)));
  }
  const vectors = stack(embedded, model.dim);
  progress.finish(`${passages.length} passages, ${model.dim} dimensions`);
  const sentences = await embedSentences(model, passages, glossed, options);
  const glossArrays: Record<string, Float32Array> = sentences.glossLines
    ? { glossLineFirst: sentences.glossLines.first, glossLineVectors: sentences.glossLines.vectors }
    : {};
  await writeBundle(file, {
    meta: { corpusHash, version, state: stateMeta },
    arrays: {
      ...stateArrays,
      passages: vectors,
      sentenceFirst: sentences.first,
      sentenceSpans: sentences.spans,
      sentenceVectors: sentences.vectors,
      ...glossArrays,
    },
  });
  return { index: new PassageIndex(model, vectors, sentences), fromCache: false };
}

/** Where each passage's units start in one list of them, and the list's vectors. */
async function embedUnits(model: EmbeddingModel, units: string[][], label: string, noun: string, options: BuildOptions) {
  const texts = units.flat();
  const progress = (options.progress ?? silentProgress)(label, texts.length);
  const vectors = stack(await model.embedPassages(texts, (done) => progress.update(done)), model.dim);
  progress.finish(`${texts.length} ${noun}`);
  const first = new Float32Array(units.length + 1);
  units.forEach((list, p) => (first[p + 1] = first[p]! + list.length));
  return { first, vectors };
}

/** Every passage's sentences (and, with glosses, its gloss's lines), embedded as passages by the same model (for "why this passage"). */
async function embedSentences(model: EmbeddingModel, passages: IndexedPassage[], glossed: boolean, options: BuildOptions): Promise<SentenceVectors> {
  const spans = passages.map((p) => sentenceSpans(p.text));
  const units = passages.map((p, i) => spans[i]!.map(([start, end]) => p.text.slice(start, end)));
  const { first, vectors } = await embedUnits(model, units, `Embedding the book's sentences with ${model.id}`, 'sentences', options);
  const sentences: SentenceVectors = { first, spans: Float32Array.from(spans.flat(2)), vectors };
  if (glossed) {
    const lines = passages.map((p) => glossLines(p.gloss));
    sentences.glossLines = await embedUnits(model, lines, `Embedding the glosses' lines with ${model.id}`, 'lines', options);
  }
  return sentences;
}
