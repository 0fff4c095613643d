import { readFile } from 'node:fs/promises';
import { EVAL_STYLES, firstHitRank, score, type EvalQuestion, type Scores } from './metrics.ts';

const QUESTIONS = new URL('./questions.json', import.meta.url);

export async function loadQuestions(): Promise<EvalQuestion[]> {
  return (JSON.parse(await readFile(QUESTIONS, 'utf8')) as { questions: EvalQuestion[] }).questions;
}

/** A ranked search: passage texts, best first. */
export type RankedSearch = (query: string) => Promise<string[]> | string[];

/** Rank of the first gold hit for each question, searching the top 10. */
export async function ranksFor(search: RankedSearch, questions: EvalQuestion[]): Promise<Array<number | null>> {
  const ranks: Array<number | null> = [];
  for (const q of questions) ranks.push(firstHitRank(await search(q.query), q.gold));
  return ranks;
}

const fmt = (s: Scores) => `${s.hitAt1.toFixed(2)} | ${s.hitAt3.toFixed(2)} | ${s.mrr.toFixed(3)}`;
const cell = (s: Scores) => `${s.hitAt1.toFixed(2)} / ${s.hitAt3.toFixed(2)} / ${s.mrr.toFixed(2)}`;

/** A Markdown table: hit@1, hit@3 and MRR per model, overall and per style. */
export function table(rows: Array<[string, Array<number | null>]>, questions: EvalQuestion[]): string {
  const counts = EVAL_STYLES.map((style) => questions.filter((q) => q.style === style).length);
  const lines = [
    `| model | hit@1 | hit@3 | MRR | ${EVAL_STYLES.map((s, i) => `${s} (${counts[i]}): hit@1 / hit@3 / MRR`).join(' | ')} |`,
    `|---|---|---|---|${EVAL_STYLES.map(() => '---').join('|')}|`,
  ];
  for (const [name, ranks] of rows) {
    const byStyle = EVAL_STYLES.map((style) => cell(score(ranks.filter((_, i) => questions[i]!.style === style))));
    lines.push(`| ${name} | ${fmt(score(ranks))} | ${byStyle.join(' | ')} |`);
  }
  return lines.join('\n');
}
