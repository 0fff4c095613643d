import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Passage } from '../corpus/chunk-passages.ts';
import { loadCorpus } from '../corpus/load-corpus.ts';
import { silentProgress, terminalProgress } from '../common/progress.ts';
import { loadOrBuildIndex } from '../vectors/build-index.ts';
import { LSA_SETTINGS, SIF_SETTINGS } from '../models/lineup.ts';
import { lsaRecipe, type LsaOptions } from '../models/lsa.ts';
import { sifRecipe, type SifOptions } from '../models/sif.ts';
import { loadWordVectors } from '../models/word-vectors.ts';
import type { WordVectors } from '../../common/search/word-vectors.ts';
import type { CorpusModelRecipe } from '../../common/search/types.ts';
import { ranksFor, table } from './evaluate.ts';
import { keywordBaseline } from './keyword-baseline.ts';
import type { EvalQuestion } from './metrics.ts';

/** A setting to measure: a recipe, and what of each passage it is fitted on and embeds. */
interface Candidate {
  label: string;
  recipe: CorpusModelRecipe;
  textOf?: (passage: Passage) => string;
}

/** The chosen settings, the lineup before general English, sentences and the thesaurus, and one step away on each axis. */
function candidates(words: WordVectors): Candidate[] {
  const lsa = (o: Partial<LsaOptions>) => lsaRecipe({ ...LSA_SETTINGS, ...o }, { words });
  const sif = (o: Partial<SifOptions>) => sifRecipe({ ...SIF_SETTINGS, ...o }, { words });
  const withTitles = (p: Passage) => `${p.chapter.replace(/^Chapter [IVX]+: /, '')}. ${p.section ?? ''}. ${p.text}`;
  const lsaSteps: Array<Partial<LsaOptions>> = [
    {},
    { english: 0, sentenceWeight: 0, expansion: 0.3, glossary: 0 },
    { english: 0 },
    { sentenceWeight: 0 },
    { english: 0.35 },
    { english: 1.4 },
    { sentenceWeight: 0.4 },
    { sentenceWeight: 0.8 },
    { expansion: 0.3 },
    { expansion: 0.6 },
    { englishA: 1e-2 },
    { lexicalDims: 256 },
    { dims: 128 },
    { glossary: 0 },
    { glossary: 0.45 },
    { glossary: 1 },
  ];
  const sifSteps: Array<Partial<SifOptions>> = [
    {},
    { english: 0, sentenceWeight: 0, glossary: 0 },
    { english: 0 },
    { sentenceWeight: 0 },
    { english: 0.35 },
    { english: 1 },
    { sentenceWeight: 0.4 },
    { sentenceWeight: 0.8 },
    { expansion: 0.45 },
    { dims: 200 },
    { englishA: 1e-2 },
    { glossary: 0 },
    { glossary: 0.45 },
    { glossary: 1 },
  ];
  const label = (recipe: CorpusModelRecipe) => `${recipe.id} (${recipe.version})`;
  return [
    ...[...lsaSteps.map(lsa), ...sifSteps.map(sif)].map((recipe) => ({ label: label(recipe), recipe })),
    // The chapter and section a passage stands in, as part of what it says.
    ...[lsa({}), sif({})].map((recipe) => ({ label: `${label(recipe)} + chapter titles`, recipe, textOf: withTitles })),
  ];
}

/** The measurements behind the lineup's settings: every candidate on the dev part only. */
export async function runSweep(dev: EvalQuestion[], corpusFile: string): Promise<void> {
  const corpus = await loadCorpus(corpusFile);
  const texts = corpus.passages.map((p) => p.text);
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'sweep-'));
  try {
    const words = await loadWordVectors({ cacheDir });
    const rows: Array<[string, Array<number | null>]> = [];
    const list = candidates(words);
    const progress = terminalProgress('Measuring settings on the dev part', list.length);
    for (const [n, { label, recipe, textOf }] of list.entries()) {
      const fitted = textOf ? corpus.passages.map(textOf) : texts;
      // Built as the server builds it, sentences and all, in a folder of its own.
      const { index } = await loadOrBuildIndex({ kind: 'corpus', recipe }, fitted, {
        cacheDir: path.join(cacheDir, String(n)),
        corpusHash: String(n),
        progress: silentProgress,
      });
      // As the engine answers: a passage at cosine ≤ 0 shares nothing with the query.
      const search = async (query: string) =>
        index.search(await index.model.embedQuery(query), 10).filter((hit) => hit.similarity > 1e-6).map((hit) => texts[hit.passage]!);
      rows.push([label, await ranksFor(search, dev)]);
      progress.update(n + 1);
    }
    progress.finish(`${list.length} settings`);
    const baseline = keywordBaseline(texts);
    rows.push(['keyword baseline (MiniSearch BM25)', await ranksFor((query) => baseline(query, 10).map((i) => texts[i]!), dev)]);
    console.log(`\nSettings measured on the dev part only (${dev.length} questions):\n`);
    console.log(table(rows, dev));
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}
