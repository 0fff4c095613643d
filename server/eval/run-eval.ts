import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { chunkPassages } from '../corpus/chunk-passages.ts';
import { parseBook } from '../corpus/parse-book.ts';
import { PassageIndex, stack } from '../index/passage-index.ts';
import { terminalProgress } from '../index/progress.ts';
import { lsaRecipe } from '../models/lsa.ts';
import { sifRecipe } from '../models/sif.ts';
import type { CorpusModelRecipe, EmbeddingModel } from '../models/types.ts';
import { startRetrieval } from '../search/start-retrieval.ts';
import { firstHitRank, score, type EvalQuestion, type Scores } from './metrics.ts';

const QUESTIONS = new URL('./questions.json', import.meta.url);

const fmt = (s: Scores) => `${s.hitAt1.toFixed(2)} | ${s.hitAt3.toFixed(2)} | ${s.mrr.toFixed(3)}`;

/** Ranks of the first gold hit for each question, searching the top 10. */
async function ranksFor(
  search: (query: string) => Promise<string[]>,
  questions: EvalQuestion[],
): Promise<Array<number | null>> {
  const ranks: Array<number | null> = [];
  for (const q of questions) ranks.push(firstHitRank(await search(q.query), q.gold));
  return ranks;
}

function table(rows: Array<[string, Array<number | null>, EvalQuestion[]]>): string {
  const styles = ['keyword', 'question', 'paraphrase'];
  const lines = [
    `| model | hit@1 | hit@3 | MRR | ${styles.map((s) => `hit@3 ${s}`).join(' | ')} |`,
    `|---|---|---|---|${styles.map(() => '---').join('|')}|`,
  ];
  for (const [name, ranks, questions] of rows) {
    const byStyle = styles.map((style) => score(ranks.filter((_, i) => questions[i]!.style === style)).hitAt3.toFixed(2));
    lines.push(`| ${name} | ${fmt(score(ranks))} | ${byStyle.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The same exact cosine scan the server searches with, over these passages. */
async function modelSearch(model: EmbeddingModel, texts: string[]) {
  const index = new PassageIndex(model, stack(await model.embedPassages(texts), model.dim));
  return async (query: string) => index.search(await model.embedQuery(query), 10).map((hit) => texts[hit.passage]!);
}

/** The measurements behind the chosen passage sizes and model dimensions. */
async function sweep(questions: EvalQuestion[], corpusFile: string): Promise<void> {
  const book = parseBook(await readFile(corpusFile, 'utf8'));
  console.log('\nPassage sizes (LSA-48 and SIF-50):\n');
  const rows: Array<[string, Array<number | null>, EvalQuestion[]]> = [];
  for (const [minWords, maxWords] of [[40, 120], [60, 150], [80, 180], [80, 200], [100, 250], [120, 300]] as const) {
    const texts = chunkPassages(book, { minWords, maxWords }).map((p) => p.text);
    for (const recipe of [lsaRecipe(48), sifRecipe({ dims: 50, window: 5, a: 0.01 })]) {
      const model = recipe.restore(recipe.fit(texts));
      rows.push([`${recipe.id}, ${minWords}–${maxWords} words (${texts.length} passages)`, await ranksFor(await modelSearch(model, texts), questions), questions]);
    }
  }
  console.log(table(rows));
  console.log('\nModel settings at 80–200 words:\n');
  const texts = chunkPassages(book).map((p) => p.text);
  const recipes: CorpusModelRecipe[] = [
    ...[16, 32, 48, 64, 96].map((d) => lsaRecipe(d)),
    ...[30, 50, 70].flatMap((dims) => [0.001, 0.01].map((a) => sifRecipe({ dims, window: 5, a }))),
  ];
  const settingRows: Array<[string, Array<number | null>, EvalQuestion[]]> = [];
  for (const recipe of recipes) {
    const model = recipe.restore(recipe.fit(texts));
    settingRows.push([`${recipe.id} (${recipe.version})`, await ranksFor(await modelSearch(model, texts), questions), questions]);
  }
  console.log(table(settingRows));
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { questions } = JSON.parse(await readFile(QUESTIONS, 'utf8')) as { questions: EvalQuestion[] };
  const engine = await startRetrieval(config, { info: () => undefined, warn: console.warn, error: console.error }, terminalProgress);
  console.log(`\n${questions.length} questions; ${engine.kind} lineup; a hit is a top-k passage holding a gold quote.\n`);
  const rows: Array<[string, Array<number | null>, EvalQuestion[]]> = [];
  for (const entry of engine.entries) {
    if (!('index' in entry)) continue;
    const search = async (query: string) =>
      (await engine.search(query, 10, entry.id)).map((r) => r.text);
    rows.push([`${entry.family} ${entry.name}`, await ranksFor(search, questions), questions]);
  }
  console.log(table(rows));
  if (process.argv.includes('--sweep')) await sweep(questions, config.corpusFile);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
