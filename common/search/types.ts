import type { WordVectors } from './word-vectors.ts';

/** Text → vectors. Every model's vectors are unit length, so cosine similarity is a dot product. */
export interface EmbeddingModel {
  /** Stable id, used in `models` and in the cache key. */
  readonly id: string;
  /** The family marker readers' tools look for in model_type: BGE, UAE, LSA, SIF. */
  readonly family: string;
  readonly name: string;
  readonly dim: number;
  /** Changes whenever the same text would get a different vector. */
  readonly version: string;
  /**
   * How much a passage's closest sentence counts in its rank, beside the passage's own cosine
   * (which counts the rest): 0 or absent, the passage alone.
   */
  readonly sentenceWeight?: number;
  /**
   * How much a passage's gloss (corpus/glosses.json: a few lines in a modern reader's words saying
   * what it answers) counts in its vector beside its own text: the passage's vector is its text's
   * plus this times its gloss's, and the gloss's lines rank with its sentences (never shown as
   * one). 0 or absent: the text alone.
   */
  readonly glossWeight?: number;
  /**
   * The model's own terms, weighed, for choosing which sentence of a passage to mark (mark.ts):
   * a question's with the relatives it counts for (WordNet, the reader's thesaurus), a sentence's
   * its own. Absent: the mark is the sentence closest by cosine alone.
   */
  readonly markTerms?: MarkTerms;
  /**
   * The share of a question's words (its slips mended) the book knows, as `countTerms` tallies it
   * (bag-of-terms.ts), for the strength of its match (match-strength.ts). Absent: not known.
   */
  bookShare?(text: string): number;
  embedQuery(text: string): Promise<Float32Array>;
  embedPassages(texts: string[], onProgress?: (done: number, total: number) => void): Promise<Float32Array[]>;
}

/** Term ids and their weights, as a model reads a question and a sentence of the book. */
export interface MarkTerms {
  question(text: string): Map<number, number>;
  sentence(text: string): Map<number, number>;
}

/** What a corpus model may draw on beyond the book: general English word vectors. */
export interface ModelResources {
  words?: WordVectors;
}

/** What a corpus-fitted model keeps so that a restart need not fit it again. */
export interface FittedState {
  meta: Record<string, unknown>;
  arrays: Record<string, Float32Array>;
}

/** A weight-free model: fitted on the corpus's passages, or restored from a saved fit. */
export interface CorpusModelRecipe {
  readonly id: string;
  readonly family: string;
  readonly name: string;
  /** Bumped whenever the fitting code or its parameters change. */
  readonly version: string;
  /** As the model's `glossWeight`: when above 0, the model is fitted on each passage's text and gloss together. */
  readonly glossWeight?: number;
  fit(passages: string[]): FittedState;
  restore(state: FittedState): EmbeddingModel;
}

/** What names a model: its id, family and name, and the version of what it computes. */
export type ModelIdentity = Pick<CorpusModelRecipe, 'id' | 'family' | 'name' | 'version' | 'glossWeight'>;

/** `model_type` as the API shows it: the family marker, then the name. */
export function modelType(model: { family: string; name: string }): string {
  return `${model.family} ${model.name}`;
}

/** A corpus-fitted model as an EmbeddingModel: the same function embeds queries and passages. */
export function corpusModel(
  recipe: ModelIdentity,
  dim: number,
  embed: (text: string) => Float32Array,
): EmbeddingModel {
  return {
    id: recipe.id,
    family: recipe.family,
    name: recipe.name,
    version: recipe.version,
    ...(recipe.glossWeight ? { glossWeight: recipe.glossWeight } : {}),
    dim,
    embedQuery: async (text) => embed(text),
    embedPassages: async (texts, onProgress) =>
      texts.map((text, i) => {
        onProgress?.(i + 1, texts.length);
        return embed(text);
      }),
  };
}

/** What a corpus model's name says of its gloss weight: "+gloss" with one, nothing without. */
export function glossName(weight: number): string {
  return weight > 0 ? '+gloss' : '';
}

/**
 * What a corpus model's version says of its gloss weight. The glosses' own text is part of the
 * index cache's key (build-index.ts), beside the book's, so an edited gloss rebuilds it too.
 */
export function glossVersion(weight: number): string {
  return weight > 0 ? `:gloss-${weight}` : '';
}

