/**
 * The marked sentence, measured: for each pair of `marked-sentences.json` (dev only: a question, a
 * passage that answers it and the sentence a reader would mark there), whether a model's search
 * marks that sentence when it returns that passage.
 */
import { readFile } from 'node:fs/promises';

const PAIRS = new URL('./marked-sentences.json', import.meta.url);

export interface MarkPair {
  /** 'tuned': the marking was chosen on these; 'held out': drawn and marked after, to check the choice. */
  set: 'tuned' | 'held out';
  query: string;
  /** The question's style, or `readme` for the README's example. */
  style: string;
  /** The passage's id. */
  passage: string;
  /** The sentence a reader would mark, verbatim. */
  sentence: string;
  /** Other sentences a reader could as well point to. */
  also: string[];
}

export async function loadMarkPairs(): Promise<{ part: 'dev'; pairs: MarkPair[] }> {
  return JSON.parse(await readFile(PAIRS, 'utf8')) as { part: 'dev'; pairs: MarkPair[] };
}

/** A search's results as far as the mark goes: each passage's id, text and marked span. */
export type MarkedSearch = (query: string) => Promise<Array<{ id: string; text: string; highlight?: { start: number; end: number } }>>;

export interface MarkAgreement {
  /** Pairs whose passage the search returned (in its first ten). */
  found: number;
  /** Of those, how many it marked the reader's sentence in, and the reader's or an `also`. */
  same: number;
  sameOrAlso: number;
  /** The pairs it marked another sentence in: the question, the reader's sentence and the one marked. */
  differ: Array<{ query: string; reader: string; marked: string }>;
}

export async function markAgreement(search: MarkedSearch, pairs: readonly MarkPair[]): Promise<MarkAgreement> {
  const result: MarkAgreement = { found: 0, same: 0, sameOrAlso: 0, differ: [] };
  for (const pair of pairs) {
    const hit = (await search(pair.query)).find((r) => r.id === pair.passage);
    if (!hit) continue;
    result.found += 1;
    const marked = hit.highlight ? hit.text.slice(hit.highlight.start, hit.highlight.end) : '';
    if (marked === pair.sentence) result.same += 1;
    if (marked === pair.sentence || pair.also.includes(marked)) result.sameOrAlso += 1;
    else result.differ.push({ query: pair.query, reader: pair.sentence, marked });
  }
  return result;
}
