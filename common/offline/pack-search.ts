import type { SearchResult } from '../../contract/api-schemas.ts';
import { interleave } from '../search/interleave.ts';
import { PassageIndex } from '../search/passage-index.ts';
import { restoreQueryModel } from '../search/query-models.ts';
import { rankForResults, resultsOf, type BookPassage, type ServedModel } from '../search/rank.ts';
import { modelType, type ModelResources } from '../search/types.ts';
import { WordVectors } from '../search/word-vectors.ts';
import { asPackContents, type PackContents } from './offline-pack.ts';
import { decodePack } from './pack-codec.ts';

/**
 * The book answered from an offline pack: each of its models restored from its fitted state and
 * indexed, and a question answered as the server's engine answers POST /api/search with
 * `models: both` (its best passages per model, interleaved), by the same functions.
 */
export class PackSearch {
  readonly version: string;
  private readonly passages: BookPassage[];
  private readonly models: ServedModel[];

  constructor(contents: PackContents) {
    this.version = contents.version;
    this.passages = contents.book.passages;
    const words = contents.words;
    const resources: ModelResources = words
      ? {
          words: new WordVectors(
            { words: words.words.split(' '), dims: words.dims, ranks: words.ranks, vectors: words.vectors, scales: words.scales },
            words.source,
          ),
        }
      : {};
    this.models = contents.models.map((packed) => {
      const lexicon = packed.meta.lexicon === null ? undefined : contents.lexicons[packed.meta.lexicon];
      const state = { meta: { ...packed.meta, lexicon }, arrays: packed.arrays };
      const model = restoreQueryModel(packed.recipe, state, resources, packed.identity);
      return { id: model.id, family: model.family, name: model.name, index: new PassageIndex(model, packed.vectors, packed.sentences) };
    });
  }

  /** The names a result's model_type takes here, as the server's. */
  modelTypes(): string[] {
    return this.models.map((m) => modelType(m));
  }

  /** The best `topK` passages of every model, best first for each and interleaved; none for a blank question. */
  async search(query: string, topK = 3): Promise<SearchResult[]> {
    const question = query.trim();
    if (!question) return [];
    const perModel = await Promise.all(
      this.models.map(async (model) => {
        const vector = await model.index.model.embedQuery(question);
        const { hits, strength } = rankForResults(model, model.index, vector, topK, { question, passages: this.passages });
        return resultsOf(model, this.passages, hits, strength);
      }),
    );
    return interleave(perModel);
  }
}

/** The search a pack's bytes hold (a PackError for bytes that are not a whole pack of this format). */
export function openPack(bytes: ArrayBuffer | Uint8Array): PackSearch {
  return new PackSearch(asPackContents(decodePack(bytes)));
}
