import type { SearchResult } from '../../contract/api-schemas.ts';
import type { PassageIndex, RankedPassage, SentenceScore } from './passage-index.ts';
import { markOf, type PassageParagraph } from './paragraph-map.ts';
import { matchStrength, STRENGTH_DEPTH } from './match-strength.ts';
import { markScore } from './mark.ts';
import { modelType } from './types.ts';

/** What a result says of its passage (the server's corpus passages, a device's pack). */
export interface BookPassage {
  id: string;
  text: string;
  chapter: string;
  section: string | null;
  /** Place in the book, from 0 (a result's passage_index). */
  index: number;
  /** The paragraphs it holds, in order (the first one's address is a result's `anchor`). */
  paragraphs: PassageParagraph[];
}

/** A model that answers, and its index. */
export interface ServedModel {
  id: string;
  family: string;
  name: string;
  index: PassageIndex;
}

/**
 * The best `topK` passages for a query's vector, each with its sentence closest to the query: a
 * passage at cosine ≤ 0 shares nothing with the query (a query of unknown words scores 0 everywhere).
 */
export function rankPassages(index: PassageIndex, vector: Float32Array, topK: number, score?: SentenceScore, marked = topK): RankedPassage[] {
  return index.rank(vector, topK, score, marked).filter(answers);
}

/** Whether a ranked passage shares anything with the query at all. */
const answers = (hit: RankedPassage): boolean => hit.similarity > 1e-6;

/**
 * A model's best `topK` passages for a query's vector and the strength of its best match
 * (match-strength.ts: how far the first stands above the next nine, and whether the gloss line
 * closest to the question is one of the first passage's), from one ranking deep enough for both:
 * what a search answers with, on the server and on a device. Given the question and the
 * passages' texts, each passage's mark also weighs the question's own words (mark.ts), and the
 * strength the share of them the book knows (the model's `bookShare`).
 */
export function rankForResults(
  model: { id: string },
  index: PassageIndex,
  vector: Float32Array,
  topK: number,
  mark?: { question: string; passages: readonly { text: string }[] },
): { hits: RankedPassage[]; strength?: number } {
  const score = mark ? markScore(index.model, mark.question, mark.passages) : undefined;
  const ranked = index.ranked(vector, Math.max(topK, STRENGTH_DEPTH), score, topK);
  const hits = ranked.hits.filter(answers);
  const lineElsewhere = ranked.closestLine !== undefined && hits[0] !== undefined && ranked.closestLine !== hits[0].passage;
  const strength = matchStrength(model.id, hits.map((hit) => hit.similarity), mark ? index.model.bookShare?.(mark.question) : undefined, lineElsewhere);
  return { hits: hits.slice(0, topK), ...(strength !== undefined ? { strength } : {}) };
}

/**
 * A model's ranked passages as /api/search returns them, each with its sentence closest to the
 * query (in the passage, and in its paragraph of the book: `anchor`, `mark`): the server's
 * answer, and a device's, are made here (any model: the keyword arm's too).
 */
export function resultsOf(model: Omit<ServedModel, 'index'>, passages: readonly BookPassage[], hits: readonly RankedPassage[], strength?: number): SearchResult[] {
  return hits.map((hit, i): SearchResult => {
    const passage = passages[hit.passage]!;
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
      ...(hit.highlight ? { highlight: hit.highlight } : {}),
      anchor: passage.paragraphs[0]!.anchor,
      ...(hit.highlight ? { mark: markOf(passage.paragraphs, hit.highlight) } : {}),
      ...(strength !== undefined ? { strength } : {}),
    };
  });
}
