/** Retrieval metrics over ranked passage texts and verbatim gold quotes. */
import { foldForMatch } from '../modules/book/index.ts';

/** How a question was written; a typo'd one copies a clean question (its `twin`) with a slip of the keyboard. */
export type EvalStyle = 'keyword' | 'question' | 'paraphrase' | 'modern' | 'everyday' | 'typo';
/** The styles a question is written in from reading the book. */
export const CLEAN_STYLES: EvalStyle[] = ['keyword', 'question', 'paraphrase', 'modern', 'everyday'];
export const EVAL_STYLES: EvalStyle[] = [...CLEAN_STYLES, 'typo'];
/** The parts of the book a question names, in the book's order. */
export const CHAPTERS_IN_ORDER = ['Preface', 'Introduction', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII'];

export interface EvalQuestion {
  /** dev: settings are chosen here; test: only reported. */
  part: 'dev' | 'test';
  chapter: string;
  style: EvalStyle;
  query: string;
  gold: string[];
  /** When a question joined the set after its split (dev only: the test part never grows). */
  added?: string;
  /** A typo'd question's clean query, which it copies with the slip (style typo only). */
  twin?: string;
}

/** 1-based rank of the first passage that contains a gold quote, or null when none in the list does. */
export function firstHitRank(ranked: string[], gold: string[]): number | null {
  const quotes = gold.map(foldForMatch);
  const index = ranked.findIndex((text) => {
    const folded = foldForMatch(text);
    return quotes.some((q) => folded.includes(q));
  });
  return index === -1 ? null : index + 1;
}

export interface Scores {
  questions: number;
  hitAt1: number;
  hitAt3: number;
  mrr: number;
}

/** hit@1, hit@3 and mean reciprocal rank (over the ranks given; a miss counts 0). */
export function score(ranks: Array<number | null>): Scores {
  const n = ranks.length || 1;
  return {
    questions: ranks.length,
    hitAt1: ranks.filter((r) => r !== null && r <= 1).length / n,
    hitAt3: ranks.filter((r) => r !== null && r <= 3).length / n,
    mrr: ranks.reduce<number>((s, r) => s + (r === null ? 0 : 1 / r), 0) / n,
  };
}

/**
 * How alike two models' answers are, question by question: the share of questions on which their
 * first passage is the same, and how many of their top 3 they share on average. The comparison
 * readers make is only worth making when these stay well below 1 and 3.
 */
export function agreement(first: string[][], second: string[][]): { sameFirst: number; sharedInTop3: number } {
  const n = Math.min(first.length, second.length);
  if (n === 0) return { sameFirst: 0, sharedInTop3: 0 };
  let same = 0;
  let shared = 0;
  for (let i = 0; i < n; i++) {
    const [a, b] = [first[i]!, second[i]!];
    if (a.length > 0 && a[0] === b[0]) same++;
    const top = new Set(a.slice(0, 3));
    shared += new Set(b.slice(0, 3).filter((x) => top.has(x))).size;
  }
  return { sameFirst: same / n, sharedInTop3: shared / n };
}
