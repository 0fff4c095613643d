/**
 * The "book says little" notice, measured: on every question of a part, each vector model's
 * match strength (common/search/match-strength.ts) and whether its first three passages missed or
 * its first was right; the notice should appear on the first and not on the second.
 */
import { agreementOf, matchStrength, saysLittle } from '../../common/search/match-strength.ts';
import { firstHitRank, type EvalQuestion } from './metrics.ts';

/** One model's answer to one question: the ranked passages' texts, best first, and its strength. */
export interface ArmAnswer {
  texts: string[];
  /**
   * The strength the search gave its first passage (it weighs what the similarities cannot: the
   * share of the question's words the book knows); nothing found, 0; undefined for a model with
   * no scale.
   */
  strength: number | undefined;
}

/** A model's search, as the notice reads it: ranked results and the first one's strength. */
export type NoticeSearch = (query: string, model: string) => Promise<ReadonlyArray<{ text: string; strength?: number }>>;

/** Each model's answers to the questions (its first ten passages), as the notice weighs them. */
export async function answersOf(search: NoticeSearch, model: string, queries: readonly string[]): Promise<ArmAnswer[]> {
  const answers: ArmAnswer[] = [];
  for (const query of queries) {
    const results = await search(query, model);
    const strength = results.length > 0 ? results[0]!.strength : matchStrength(model, []);
    answers.push({ texts: results.map((r) => r.text), strength });
  }
  return answers;
}

/** Whether the notice appears on the `i`th question, the `shown` models' answers seen side by side. */
const noticeOn = (shown: ReadonlyArray<{ answers: ArmAnswer[] }>, i: number): boolean =>
  saysLittle(
    shown.map(({ answers }) => answers[i]!.strength),
    agreementOf(shown.map(({ answers }) => answers[i]!.texts)),
  );

export interface NoticeRates {
  /** Share of the questions whose first three passages miss on which the notice appears, and how many. */
  onMisses: number;
  misses: number;
  /** Share of the questions whose first passage is right on which it appears, and how many. */
  onHits: number;
  hits: number;
}

/** How often the notice appears on one model's misses and hits, the notice seeing `shown` models' strengths. */
export function noticeRates(questions: EvalQuestion[], judged: ArmAnswer[], shown: Array<{ model: string; answers: ArmAnswer[] }>): NoticeRates {
  let misses = 0;
  let hits = 0;
  let onMisses = 0;
  let onHits = 0;
  questions.forEach((q, i) => {
    const rank = firstHitRank(judged[i]!.texts, q.gold);
    const notice = noticeOn(shown, i);
    if (rank === null || rank > 3) {
      misses += 1;
      if (notice) onMisses += 1;
    } else if (rank === 1) {
      hits += 1;
      if (notice) onHits += 1;
    }
  });
  return { onMisses: misses ? onMisses / misses : 0, misses, onHits: hits ? onHits / hits : 0, hits };
}

/** A Markdown table: for each model, the notice's rates when it is shown alone and beside each other model. */
export function noticeTable(questions: EvalQuestion[], arms: Array<{ name: string; model: string; answers: ArmAnswer[] }>): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const lines = ['| model judged | shown beside | notice on first-three misses | notice on right first passages |', '|---|---|---|---|'];
  for (const arm of arms) {
    for (const other of [undefined, ...arms.filter((a) => a !== arm)]) {
      const shown = [arm, ...(other ? [other] : [])];
      const r = noticeRates(questions, arm.answers, shown);
      lines.push(`| ${arm.name} | ${other ? other.name : '(alone)'} | ${pct(r.onMisses)} of ${r.misses} | ${pct(r.onHits)} of ${r.hits} |`);
    }
  }
  return lines.join('\n');
}

/** How often the notice appears over questions the book does not answer, the notice seeing `shown` models' answers to each. */
export function noticeOnUnanswered(shown: Array<{ model: string; answers: ArmAnswer[] }>): number {
  const count = shown[0]?.answers.length ?? 0;
  let on = 0;
  for (let i = 0; i < count; i++) if (noticeOn(shown, i)) on += 1;
  return count ? on / count : 0;
}

/** A Markdown table: how often the notice appears on questions the book does not answer, each model alone and each pair. */
export function unansweredTable(arms: Array<{ name: string; model: string; answers: ArmAnswer[] }>): string {
  const lines = ['| shown | notice on questions the book does not answer |', '|---|---|'];
  const count = arms[0]?.answers.length ?? 0;
  const row = (label: string, shown: typeof arms) => lines.push(`| ${label} | ${Math.round(noticeOnUnanswered(shown) * 100)}% of ${count} |`);
  for (const arm of arms) row(`${arm.name} (alone)`, [arm]);
  arms.forEach((arm, i) => arms.slice(i + 1).forEach((other) => row(`${arm.name} beside ${other.name}`, [arm, other])));
  return lines.join('\n');
}
