import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Passage } from '../modules/book/index.ts';
import { askedFile, loadCorpus } from '../modules/book/index.ts';
import { silentProgress, terminalProgress } from '../platform/util/progress.ts';
import { loadOrBuildIndex } from '../modules/search/index.ts';
import { LSA_SETTINGS, SIF_SETTINGS } from '../modules/search/index.ts';
import { lsaRecipe, type LsaOptions } from '../modules/search/index.ts';
import { sifRecipe, type SifOptions } from '../modules/search/index.ts';
import { loadWordVectors } from '../modules/search/index.ts';
import type { WordVectors } from '../../common/search/word-vectors.ts';
import type { CorpusModelRecipe } from '../../common/search/types.ts';
import { ranksFor, table } from './evaluate.ts';
import { keywordBaseline } from './keyword-baseline.ts';
import type { EvalQuestion } from './metrics.ts';
import { typoTwins } from './typos.ts';
import { PassageIndex } from '../../common/search/passage-index.ts';

/** A setting to measure: a recipe, and what of each passage it is fitted on and embeds. */
interface Candidate {
  label: string;
  recipe: CorpusModelRecipe;
  textOf?: (passage: Passage) => string;
  /** Whether a passage is also ranked by its gloss's lines (as by its sentences); yes unless false. */
  glossLines?: boolean;
}

/** The chosen settings, the lineup before the glosses, and one step away on each axis. */
function candidates(words: WordVectors): Candidate[] {
  const lsa = (o: Partial<LsaOptions>) => lsaRecipe({ ...LSA_SETTINGS, ...o }, { words });
  const sif = (o: Partial<SifOptions>) => sifRecipe({ ...SIF_SETTINGS, ...o }, { words });
  const withTitles = (p: Passage) => `${p.chapter.replace(/^Chapter [IVX]+: /, '')}. ${p.section ?? ''}. ${p.text}`;
  const lsaSteps: Array<Partial<LsaOptions>> = [
    {},
    { gloss: 0, typos: false },
    { typos: false },
    { gloss: 0 },
    { gloss: 0.5 },
    { gloss: 1.5 },
    { gloss: 2 },
    { sentenceWeight: 0.4 },
    { sentenceWeight: 0.8 },
    { english: 0.35 },
    { english: 1.4 },
    { expansion: 0.3 },
    { expansion: 0.6 },
    { glossary: 0.45 },
    { glossary: 1 },
    { dims: 128 },
    { lexicalDims: 512 },
  ];
  const sifSteps: Array<Partial<SifOptions>> = [
    {},
    { gloss: 0, typos: false },
    { typos: false },
    { gloss: 0 },
    { gloss: 0.5 },
    { gloss: 1.5 },
    { gloss: 2 },
    { sentenceWeight: 0.4 },
    { sentenceWeight: 0.8 },
    { english: 0.35 },
    { english: 1 },
    { expansion: 0.45 },
    { glossary: 0.45 },
    { glossary: 1 },
    { dims: 200 },
  ];
  // The settings as chosen, with the version that names them all, or the one step away from them.
  const label = (recipe: CorpusModelRecipe, step: object = {}) =>
    Object.keys(step).length === 0
      ? `${recipe.id} as chosen (${recipe.version})`
      : `${recipe.id} ${Object.entries(step).map(([key, value]) => `${key} ${String(value)}`).join(', ')}`;
  return [
    ...lsaSteps.map((step) => ({ label: label(lsa(step), step), recipe: lsa(step) })),
    ...sifSteps.map((step) => ({ label: label(sif(step), step), recipe: sif(step) })),
    // A passage ranked by its sentences only, its gloss counting in its own vector alone.
    ...[lsa({}), sif({})].map((recipe) => ({ label: `${label(recipe)}, gloss lines not ranked`, recipe, glossLines: false })),
    // The chapter and section a passage stands in, as part of what it says.
    ...[lsa({}), sif({})].map((recipe) => ({ label: `${label(recipe)} + chapter titles`, recipe, textOf: withTitles })),
  ];
}

/** The measurements behind the lineup's settings: every candidate on the dev part only. */
export async function runSweep(clean: EvalQuestion[], corpusFile: string): Promise<void> {
  // Beside each clean question, its typo'd twin (typos.ts), in a column of its own.
  const dev = [...clean, ...typoTwins(clean.filter((q) => q.style !== 'typo'))];
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'sweep-'));
  try {
    // Settings are weighed on the book and its glosses without the questions asked of it
    // (corpus/asked.json): those are the very dev questions measured here.
    const bare = path.join(cacheDir, 'corpus');
    await cp(path.dirname(corpusFile), bare, { recursive: true });
    await rm(askedFile(path.join(bare, path.basename(corpusFile))), { force: true });
    const corpus = await loadCorpus(path.join(bare, path.basename(corpusFile)));
    const texts = corpus.passages.map((p) => p.text);
    const words = await loadWordVectors({ cacheDir });
    const rows: Array<[string, Array<number | null>]> = [];
    const list = candidates(words);
    const progress = terminalProgress('Measuring settings on the dev part', list.length);
    for (const [n, { label, recipe, textOf, glossLines = true }] of list.entries()) {
      const fitted = textOf ? corpus.passages.map((p) => ({ ...p, text: textOf(p) })) : corpus.passages;
      // Built as the server builds it, sentences and all, in a folder of its own.
      const built = await loadOrBuildIndex({ kind: 'corpus', recipe }, fitted, {
        cacheDir: path.join(cacheDir, String(n)),
        corpusHash: String(n),
        progress: silentProgress,
      });
      const { model, vectors, sentences } = built.index;
      const index = glossLines || !sentences ? built.index : new PassageIndex(model, vectors, { ...sentences, glossLines: undefined });
      // As the engine answers: a passage at cosine ≤ 0 shares nothing with the query.
      const search = async (query: string) =>
        index.search(await index.model.embedQuery(query), 10).filter((hit) => hit.similarity > 1e-6).map((hit) => texts[hit.passage]!);
      rows.push([label, await ranksFor(search, dev)]);
      progress.update(n + 1);
    }
    progress.finish(`${list.length} settings`);
    const baseline = keywordBaseline(texts);
    rows.push(['keyword baseline (MiniSearch BM25)', await ranksFor((query) => baseline(query, 10).map((i) => texts[i]!), dev)]);
    console.log(`\nSettings measured on the dev part only (${clean.length} questions, and their typo'd twins):\n`);
    console.log(table(rows, dev));
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}
