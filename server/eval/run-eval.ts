import { loadConfig } from '../config.ts';
import { terminalProgress } from '../common/progress.ts';
import { startRetrieval } from '../search/start-retrieval.ts';
import { keywordBaseline } from './keyword-baseline.ts';
import { loadQuestions, ranksFor, table } from './evaluate.ts';
import { agreement, firstHitRank } from './metrics.ts';
import { runSweep } from './sweep.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const questions = await loadQuestions();
  if (process.argv.includes('--sweep')) {
    await runSweep(questions.filter((q) => q.part === 'dev'), config.corpusFile);
    return;
  }
  const engine = await startRetrieval(config, { info: () => undefined, warn: console.warn, error: console.error }, terminalProgress);
  const texts = engine.corpus.passages.map((p) => p.text);
  const baseline = keywordBaseline(texts);
  console.log(`\n${engine.kind} lineup on ${texts.length} passages; a hit is a top-k passage holding a gold quote.`);
  for (const part of ['dev', 'test'] as const) {
    const set = questions.filter((q) => q.part === part);
    const rows: Array<[string, Array<number | null>]> = [];
    const answers: string[][][] = [];
    for (const entry of engine.entries) {
      if (!('index' in entry)) continue;
      const results = [];
      for (const q of set) results.push(await engine.search(q.query, 10, entry.id));
      rows.push([`${entry.family} ${entry.name}`, results.map((found, i) => firstHitRank(found.map((r) => r.text), set[i]!.gold))]);
      answers.push(results.map((found) => found.map((r) => r.id)));
    }
    rows.push(['keyword baseline (MiniSearch BM25)', await ranksFor((query) => baseline(query, 10).map((i) => texts[i]!), set)]);
    const note = part === 'dev' ? 'settings are chosen on this part' : 'reported only, never used to choose anything';
    console.log(`\n${part} part: ${set.length} questions (${note})\n`);
    console.log(table(rows, set));
    if (answers.length === 2) {
      const { sameFirst, sharedInTop3 } = agreement(answers[0]!, answers[1]!);
      console.log(
        `\nThe two models give the same first passage on ${Math.round(sameFirst * 100)}% of these questions ` +
          `and share ${sharedInTop3.toFixed(1)} of their top 3 on average.`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
