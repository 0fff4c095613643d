import { readFile } from 'node:fs/promises';
import { EVAL_STYLES, firstHitRank, score, type EvalQuestion, type Scores } from './metrics.ts';

const QUESTIONS = new URL('./questions.json', import.meta.url);
const UNANSWERED = new URL('./unanswered.json', import.meta.url);

const PARTS = ['dev', 'test'] as const;

/** The parts `--part dev` or `--part test` asks for (both without it). */
export function partsAsked(argv: string[]): Array<EvalQuestion['part']> {
  const at = argv.indexOf('--part');
  if (at === -1) return [...PARTS];
  const part = argv[at + 1];
  if (part !== 'dev' && part !== 'test') throw new Error(`--part must be dev or test (got ${part ?? 'nothing'})`);
  return [part];
}

export async function loadQuestions(): Promise<EvalQuestion[]> {
  return (JSON.parse(await readFile(QUESTIONS, 'utf8')) as { questions: EvalQuestion[] }).questions;
}

/** A question the book does not answer (unanswered.json): the notice that it says little should appear. */
export interface UnansweredQuestion {
  part: EvalQuestion['part'];
  kind: string;
  query: string;
}

export async function loadUnanswered(): Promise<UnansweredQuestion[]> {
  return (JSON.parse(await readFile(UNANSWERED, 'utf8')) as { questions: UnansweredQuestion[] }).questions;
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

/**
 * A Markdown table: hit@1, hit@3 and MRR per model over the clean questions (every style but
 * typo), then per style, typo'd questions included where there are any.
 */
export function table(rows: Array<[string, Array<number | null>]>, questions: EvalQuestion[]): string {
  const styles = EVAL_STYLES.filter((style) => questions.some((q) => q.style === style));
  const counts = styles.map((style) => questions.filter((q) => q.style === style).length);
  const clean = questions.filter((q) => q.style !== 'typo').length;
  const lines = [
    `| model | hit@1 (${clean}) | hit@3 | MRR | ${styles.map((s, i) => `${s} (${counts[i]}): hit@1 / hit@3 / MRR`).join(' | ')} |`,
    `|---|---|---|---|${styles.map(() => '---').join('|')}|`,
  ];
  for (const [name, ranks] of rows) {
    const byStyle = styles.map((style) => cell(score(ranks.filter((_, i) => questions[i]!.style === style))));
    lines.push(`| ${name} | ${fmt(score(ranks.filter((_, i) => questions[i]!.style !== 'typo')))} | ${byStyle.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Typo'd questions beside their clean twins, per model: hit@1 and hit@3 of each, and how far the typo'd fall. */
export function twinTable(rows: Array<{ name: string; typod: Array<number | null>; twins: Array<number | null> }>): string {
  const lines = [
    `| model | typo'd hit@1 | twins hit@1 | typo'd hit@3 | twins hit@3 | hit@3 lost |`,
    '|---|---|---|---|---|---|',
  ];
  for (const { name, typod, twins } of rows) {
    const [t, c] = [score(typod), score(twins)];
    // Rounded first, so that no difference shows as -0.00.
    const values = [t.hitAt1, c.hitAt1, t.hitAt3, c.hitAt3, c.hitAt3 - t.hitAt3].map((v) => (Math.round(v * 100) / 100 || 0).toFixed(2));
    lines.push(`| ${name} | ${values.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Each typo'd question's clean twin: its `twin` query, with the same gold. */
export function twinsOf(typod: EvalQuestion[]): EvalQuestion[] {
  return typod.map((q) => {
    if (!q.twin) throw new Error(`the typo'd question "${q.query}" names no twin`);
    const { twin, ...rest } = q;
    return { ...rest, query: twin };
  });
}
