import type { CorpusSummary, HealthModel, PassageContext, SearchResult } from '../../contract/api-schemas.ts';
import type { Corpus } from '../corpus/load-corpus.ts';
import type { PassageIndex } from '../../common/search/passage-index.ts';
import type { LineupKind } from '../models/lineup.ts';
import { modelType } from '../../common/search/types.ts';
import { interleave } from '../../common/search/interleave.ts';
import { modelResults, rankPassages } from '../../common/search/rank.ts';
import { LruCache } from './lru-cache.ts';

export type { SearchResult };

/** A model the lineup names: served from its index, or unavailable with the reason. */
export type LineupEntry =
  | { id: string; family: string; name: string; dim: number; index: PassageIndex }
  | { id: string; family: string; name: string; dim: number; error: string };

export class ModelUnavailableError extends Error {}
export class UnknownModelError extends Error {}

/** Search over the book with every model of the lineup. */
export class RetrievalEngine {
  private readonly queryVectors: LruCache<string, Float32Array>;
  /** Told how long each model took for a question it computed (metrics). */
  onModelSearch: ((model: string, seconds: number) => void) | null = null;
  /** Whole answers to repeated questions: a scan through every model, done once per question. */
  private readonly answers: LruCache<string, SearchResult[]>;

  constructor(
    readonly corpus: Corpus,
    readonly kind: LineupKind,
    readonly entries: LineupEntry[],
    queryCacheSize = 2000,
  ) {
    this.queryVectors = new LruCache(queryCacheSize);
    this.answers = new LruCache(queryCacheSize);
  }

  modelIds(): string[] {
    return this.entries.map((e) => e.id);
  }

  /** The names votes carry for this lineup's models (a result's model_type). */
  modelTypes(): string[] {
    return this.entries.map((e) => modelType(e));
  }

  /** Best first for each model, interleaved across models, `topK` from each. */
  async search(query: string, topK: number, models: string): Promise<SearchResult[]> {
    const key = `${models}\n${topK}\n${query}`;
    const cached = this.answers.get(key);
    if (cached) return cached;
    const answer = await this.searchAll(query, topK, models);
    this.answers.set(key, answer);
    return answer;
  }

  private async searchAll(query: string, topK: number, models: string): Promise<SearchResult[]> {
    const chosen = models === 'both' ? this.entries : this.entries.filter((e) => e.id === models);
    if (chosen.length === 0) throw new UnknownModelError(`models must be both or one of ${this.modelIds().join(', ')}`);
    const perModel = await Promise.all(
      chosen.map(async (entry) => {
        if ('error' in entry) throw new ModelUnavailableError(`The ${modelType(entry)} model cannot be served right now`);
        const started = performance.now();
        const { vector, hits } = await this.rank(entry.index, query, topK);
        const results = modelResults(entry, this.corpus.passages, vector, hits);
        this.onModelSearch?.(entry.id, (performance.now() - started) / 1000);
        return results;
      }),
    );
    return interleave(perModel);
  }

  /**
   * The ids of the first `topK` passages `modelType`'s model answers `query` with, by the same
   * computation as search: null when no model of this lineup carries that name, and
   * ModelUnavailableError when it does but cannot be served now.
   */
  async firstPassageIds(query: string, modelTypeName: string, topK: number): Promise<string[] | null> {
    const entry = this.entries.find((e) => modelType(e) === modelTypeName);
    if (!entry) return null;
    if ('error' in entry) throw new ModelUnavailableError(`The ${modelTypeName} model cannot be served right now`);
    const { hits } = await this.rank(entry.index, query, topK);
    return hits.map((hit) => this.corpus.passages[hit.passage]!.id);
  }

  /** The passage whose text this is (its ends' spaces aside), or undefined. */
  passageIdOf(text: string): string | undefined {
    this.idsByText ??= new Map(this.corpus.passages.map((p) => [p.text.trim(), p.id]));
    return this.idsByText.get(text.trim());
  }

  private idsByText?: Map<string, string>;

  /** The best `topK` passages for the query, and the query's vector. */
  private async rank(index: PassageIndex, query: string, topK: number) {
    const vector = await this.queryVector(index, query);
    return { vector, hits: rankPassages(index, vector, topK) };
  }

  private async queryVector(index: PassageIndex, query: string): Promise<Float32Array> {
    const key = `${index.model.id}\n${query}`;
    const cached = this.queryVectors.get(key);
    if (cached) return cached;
    let vector: Float32Array;
    try {
      vector = await index.model.embedQuery(query);
    } catch (error) {
      throw new ModelUnavailableError(`The ${modelType(index.model)} model cannot be served right now`, { cause: error });
    }
    this.queryVectors.set(key, vector);
    return vector;
  }

  lineup(): string {
    return this.kind;
  }

  models(): HealthModel[] {
    return this.entries.map((e) => ({
      id: e.id,
      family: e.family,
      name: e.name,
      dim: e.dim,
      passages: 'index' in e ? e.index.count : 0,
      status: 'error' in e ? 'unavailable' : 'ready',
    }));
  }

  corpusSummary(): CorpusSummary {
    return { title: this.corpus.title, chapters: this.corpus.chapters.length, passages: this.corpus.passages.length };
  }

  /** The passage with up to `before` neighbours before it and `after` after it, within its chapter. */
  context(id: string, before: number, after: number): PassageContext | null {
    const passage = this.corpus.passages.find((p) => p.id === id);
    if (!passage) return null;
    const chapter = this.corpus.passages.filter((p) => p.chapter === passage.chapter);
    const at = chapter.indexOf(passage);
    const from = Math.max(0, at - before);
    const to = Math.min(chapter.length - 1, at + after);
    return {
      id: passage.id,
      chapter: passage.chapter,
      section: passage.section,
      passages: chapter.slice(from, to + 1).map((p) => ({ id: p.id, text: p.text, passage_index: p.index, section: p.section })),
      notes: passage.notes,
      more_before: from,
      more_after: chapter.length - 1 - to,
    };
  }
}
