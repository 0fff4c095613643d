import type { CorpusSummary, HealthModel, PassageContext, SearchResult } from '../../../contract/api-schemas.ts';
import type { Corpus, PassageSet } from '../book/index.ts';
import { passageSet } from '../book/index.ts';
import type { PassageIndex, RankedPassage } from '../../../common/search/passage-index.ts';
import type { KeywordIndex } from './models/keyword-arm.ts';
import type { LineupKind } from './models/lineup.ts';
import { modelType } from '../../../common/search/types.ts';
import { interleave } from '../../../common/search/interleave.ts';
import { rankForResults, rankPassages, resultsOf } from '../../../common/search/rank.ts';

export type { SearchResult };

/** A model the lineup names: served from its vector index or its keyword index, or unavailable with the reason. */
export type LineupEntry =
  | { id: string; family: string; name: string; dim: number; index: PassageIndex }
  | { id: string; family: string; name: string; dim: number; keyword: KeywordIndex }
  | { id: string; family: string; name: string; dim: number; error: string };

/** An arm of the arena: a model that can be served now, by its id and the name its votes carry. */
export interface Arm {
  id: string;
  modelType: string;
}

/** A model that can be served: its vector index, or its keyword index. */
type ServedEntry = Exclude<LineupEntry, { error: string }>;

export class ModelUnavailableError extends Error {}
export class UnknownModelError extends Error {}

/**
 * Search over the book with the models of the lineup: a question's one computation, from its
 * vector to the ranked passages with their highlights, each step once. It keeps no answers: the
 * search route keeps the bytes of the most asked (server/modules/arena/routes/search-routes.ts).
 */
export class RetrievalEngine {
  /** Told how long each model took for a question it computed (metrics). */
  onModelSearch: ((model: string, seconds: number) => void) | null = null;

  /** The lineup is fixed when the engine is made: its pool is worked out once, not per search. */
  private readonly arms: readonly Arm[];

  constructor(
    readonly corpus: Corpus,
    readonly kind: LineupKind,
    readonly entries: readonly LineupEntry[],
  ) {
    this.arms = Object.freeze(entries.filter((e) => !('error' in e)).map((e) => ({ id: e.id, modelType: modelType(e) })));
  }

  modelIds(): string[] {
    return this.entries.map((e) => e.id);
  }

  /** The names votes carry for this lineup's models (a result's model_type). */
  modelTypes(): string[] {
    return this.entries.map((e) => modelType(e));
  }

  /** The arms a `both` search may draw: every model that can be served now. */
  pool(): readonly Arm[] {
    return this.arms;
  }

  /**
   * Best first for each model asked (one id, or several), interleaved across them (model 1 rank
   * 1, model 2 rank 1, model 1 rank 2, ...), `topK` from each.
   */
  async search(query: string, topK: number, models: string | readonly string[]): Promise<SearchResult[]> {
    const chosen = (typeof models === 'string' ? [models] : models).map((id) => this.entries.find((e) => e.id === id));
    if (chosen.length === 0 || chosen.some((entry) => !entry)) {
      throw new UnknownModelError(`models must be both or one of ${this.modelIds().join(', ')}`);
    }
    return interleave(await Promise.all(chosen.map((entry) => this.searchModel(entry!, query, topK))));
  }

  private async searchModel(entry: LineupEntry, query: string, topK: number): Promise<SearchResult[]> {
    if ('error' in entry) throw new ModelUnavailableError(`The ${modelType(entry)} model cannot be served right now`);
    const started = performance.now();
    let results: SearchResult[];
    if ('keyword' in entry) {
      results = resultsOf(entry, this.corpus.passages, entry.keyword.rank(query, topK));
    } else {
      const { hits, strength } = rankForResults(entry, entry.index, await this.queryVector(entry.index, query), topK, {
        question: query,
        passages: this.corpus.passages,
      });
      results = resultsOf(entry, this.corpus.passages, hits, strength);
    }
    this.onModelSearch?.(entry.id, (performance.now() - started) / 1000);
    return results;
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
    return (await this.rank(entry, query, topK)).map((hit) => this.corpus.passages[hit.passage]!.id);
  }

  /** The passage whose text this is (its ends' spaces aside), or undefined. */
  passageIdOf(text: string): string | undefined {
    return this.passageOf(text)?.set === this.corpus.passageSet ? this.passageOf(text)!.id : undefined;
  }

  /**
   * The passage whose text this is (its ends' spaces aside) and the set it belongs to: the
   * passages served now first, then each earlier cut of the book shipped with it (a vote cast on
   * an earlier cut names its passage there); undefined for a text that is no passage of any.
   */
  passageOf(text: string): { set: string; id: string } | undefined {
    this.sets ??= [passageSet(this.corpus.passageSet, this.corpus.passages), ...this.corpus.earlier];
    const trimmed = text.trim();
    for (const set of this.sets) {
      const id = set.idsByText.get(trimmed);
      if (id !== undefined) return { set: set.name, id };
    }
    return undefined;
  }

  private sets?: PassageSet[];

  /**
   * A served model's first `topK` passages for the query, best first, each with its sentence
   * that best matches it: the one computation behind search and the shown check.
   */
  private async rank(entry: ServedEntry, query: string, topK: number): Promise<RankedPassage[]> {
    if ('keyword' in entry) return entry.keyword.rank(query, topK);
    return rankPassages(entry.index, await this.queryVector(entry.index, query), topK);
  }

  private async queryVector(index: PassageIndex, query: string): Promise<Float32Array> {
    try {
      return await index.model.embedQuery(query);
    } catch (error) {
      throw new ModelUnavailableError(`The ${modelType(index.model)} model cannot be served right now`, { cause: error });
    }
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
      passages: 'index' in e ? e.index.count : 'keyword' in e ? e.keyword.count : 0,
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
