import { loadConfig } from '../platform/config/config.ts';
import { terminalProgress } from '../platform/util/progress.ts';
import { startRetrieval } from '../modules/search/index.ts';
import { keywordBaseline } from './keyword-baseline.ts';
import { loadQuestions, loadUnanswered, partsAsked, ranksFor, table, twinsOf, twinTable, type RankedSearch } from './evaluate.ts';
import { agreement, CHAPTERS_IN_ORDER, score } from './metrics.ts';
import { loadMarkPairs, markAgreement } from './marked-sentences.ts';
import { answersOf, noticeTable, unansweredTable, type ArmAnswer, type NoticeSearch } from './notice-calibration.ts';
import { runSweep } from './sweep.ts';
import { foldedEngine, type EvalEngine } from './asked.ts';
import { askedFile } from '../modules/book/index.ts';
import { existsSync } from 'node:fs';
import { typodQuestions } from './typos.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const questions = await loadQuestions();
  const parts = partsAsked(process.argv);
  if (process.argv.includes('--sweep')) {
    await runSweep(questions.filter((q) => q.part === 'dev'), config.corpusFile);
    return;
  }
  const shipped = await startRetrieval(config, { info: () => undefined, warn: console.warn, error: console.error }, terminalProgress);
  // The dev questions are lines of their passages (corpus/asked.json): each is searched without its own fold's.
  const asked = existsSync(askedFile(config.corpusFile));
  console.log(`\n${shipped.kind} lineup on ${shipped.corpus.passages.length} passages; a hit is a top-k passage holding a gold quote.`);
  for (const part of parts) {
    const set = questions.filter((q) => q.part === part);
    if (set.length === 0) {
      console.log(`\n${part} part: no questions`);
      continue;
    }
    // Generated typo'd twins (a part without its own) are named too, so that each goes with its twin's fold.
    const engine: EvalEngine = part === 'dev' && asked ? await foldedEngine(config, [...set, ...typodQuestions(set).typod], terminalProgress) : shipped;
    if (engine !== shipped) console.log('\nEach dev question is searched by the models fitted without the asked questions of its fold (two folds; corpus/asked.json).');
    const texts = engine.corpus.passages.map((p) => p.text);
    const baseline = keywordBaseline(texts);
    const searches: Array<[string, RankedSearch]> = engine.entries
      .filter((entry) => 'index' in entry)
      .map((entry) => [
        `${entry.family} ${entry.name}`,
        async (query: string) => (await engine.search(query, 10, entry.id)).map((r) => r.text),
      ]);
    searches.push(['keyword baseline (MiniSearch BM25)', (query) => baseline(query, 10).map((i) => texts[i]!)]);
    const rows: Array<[string, Array<number | null>]> = [];
    for (const [name, search] of searches) rows.push([name, await ranksFor(search, set)]);
    const note = part === 'dev' ? 'settings are chosen on this part' : 'reported only, never used to choose anything';
    const clean = set.filter((q) => q.style !== 'typo').length;
    console.log(`\n${part} part: ${set.length} questions, ${clean} of them clean (${note})\n`);
    console.log(table(rows, set));
    const firstPassages = async (search: RankedSearch) => Promise.all(set.map(async (q) => (await search(q.query)).slice(0, 3)));
    if (searches.length === 3) {
      const { sameFirst, sharedInTop3 } = agreement(await firstPassages(searches[0]![1]), await firstPassages(searches[1]![1]));
      console.log(
        `\nThe two models give the same first passage on ${Math.round(sameFirst * 100)}% of these questions ` +
          `and share ${sharedInTop3.toFixed(1)} of their top 3 on average.`,
      );
    }
    const vectorArms = engine.entries.filter((entry) => 'index' in entry);
    const noticeSearch: NoticeSearch = (query, model) => engine.search(query, 10, model);
    const arms: Array<{ name: string; model: string; answers: ArmAnswer[] }> = [];
    for (const entry of vectorArms) arms.push({ name: entry.family, model: entry.id, answers: await answersOf(noticeSearch, entry.id, set.map((q) => q.query)) });
    const chapters = CHAPTERS_IN_ORDER.filter((c) => set.some((q) => q.chapter === c));
    console.log(`\nBy chapter (clean questions): hit@1 / hit@3\n`);
    console.log(`| model | ${chapters.map((c) => `${c} (${set.filter((q) => q.chapter === c && q.style !== 'typo').length})`).join(' | ')} |`);
    console.log(`|---|${chapters.map(() => '---').join('|')}|`);
    for (const [name, search] of searches) {
      const ranks = await ranksFor(search, set);
      const cells = chapters.map((c) => {
        const s = score(ranks.filter((_, i) => set[i]!.chapter === c && set[i]!.style !== 'typo'));
        return `${s.hitAt1.toFixed(2)} / ${s.hitAt3.toFixed(2)}`;
      });
      console.log(`| ${name} | ${cells.join(' | ')} |`);
    }
    console.log(`\nThe notice that the book says little (common/search/match-strength.ts), on the ${set.length} questions:\n`);
    console.log(noticeTable(set, arms));
    const unanswered = (await loadUnanswered()).filter((q) => q.part === part);
    const unansweredArms: typeof arms = [];
    for (const arm of arms) unansweredArms.push({ ...arm, answers: await answersOf(noticeSearch, arm.model, unanswered.map((q) => q.query)) });
    console.log(`\nThe same notice on ${unanswered.length} questions the book does not answer (server/eval/unanswered.json), where it should appear:\n`);
    console.log(unansweredTable(unansweredArms));
    if (part === 'dev') {
      const { pairs } = await loadMarkPairs();
      console.log(`\nThe marked sentence against the one a reader would mark (server/eval/marked-sentences.json, ${pairs.length} dev pairs):\n`);
      for (const entry of vectorArms) {
        const search = (query: string) => engine.search(query, 10, entry.id);
        const line = [];
        for (const half of ['tuned', 'held out'] as const) {
          const a = await markAgreement(search, pairs.filter((p) => p.set === half));
          line.push(`${half}: ${a.same} of ${a.found} (${a.sameOrAlso} with the other sentences a reader could mark)`);
        }
        console.log(`- ${entry.family}: ${line.join('; ')}`);
      }
    }
    const { typod, generated } = typodQuestions(set);
    const twins = twinsOf(typod);
    const twinRows = [];
    for (const [name, search] of searches) twinRows.push({ name, typod: await ranksFor(search, typod), twins: await ranksFor(search, twins) });
    console.log(
      generated
        ? `\nTypo'd twins generated for the ${typod.length} questions (two neighbouring letters swapped in their two longest words), beside the clean questions:\n`
        : `\nThe ${typod.length} typo'd questions beside their clean twins:\n`,
    );
    console.log(twinTable(twinRows));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
