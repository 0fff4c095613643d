import type { Highlight, SearchResult } from '../../contract/api-schemas.ts';
import type { PassageIndex, ScoredPassage } from './passage-index.ts';
import { modelType } from './types.ts';

/** What a result says of its passage (the server's corpus passages, a device's pack). */
export interface BookPassage {
  id: string;
  text: string;
  chapter: string;
  section: string | null;
  /** Place in the book, from 0 (a result's passage_index). */
  index: number;
}

/** A model that answers, and its index. */
export interface ServedModel {
  id: string;
  family: string;
  name: string;
  index: PassageIndex;
}

/** The best `topK` passages for a query's vector: a passage at cosine ≤ 0 shares nothing with the query (a query of unknown words scores 0 everywhere). */
export function rankPassages(index: PassageIndex, vector: Float32Array, topK: number): ScoredPassage[] {
  return index.search(vector, topK).filter((hit) => hit.similarity > 1e-6);
}

/**
 * A model's ranked passages as /api/search returns them, each with its sentence closest to the
 * query: the server's answer, and a device's, are made here.
 */
export function modelResults(model: ServedModel, passages: readonly BookPassage[], vector: Float32Array, hits: ScoredPassage[]): SearchResult[] {
  return resultsOf(model, passages, hits, (passage) => model.index.bestSentence(passage, vector));
}

/** Ranked passages as /api/search returns them, `highlight` giving each one's sentence closest to the query (any model: the keyword arm's too). */
export function resultsOf(
  model: Omit<ServedModel, 'index'>,
  passages: readonly BookPassage[],
  hits: ScoredPassage[],
  highlight: (passage: number) => Highlight | undefined,
): SearchResult[] {
  return hits.map((hit, i): SearchResult => {
    const passage = passages[hit.passage]!;
    const sentence = highlight(hit.passage);
    return {
      id: passage.id,
      text: passage.text,
      model_type: modelType(model),
      model: model.id,
      similarity: Math.round(hit.similarity * 1e6) / 1e6,
      chapter: passage.chapter,
      section: passage.section,
      passage_index: passage.index,
      rank: i + 1,
      ...(sentence ? { highlight: sentence } : {}),
    };
  });
}
