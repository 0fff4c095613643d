import type { Passage } from '../corpus/chunk-passages.ts';
import { loadCorpus } from '../corpus/load-corpus.ts';
import { PassageIndex, stack } from '../vectors/passage-index.ts';
import { LSA_SETTINGS, SIF_SETTINGS } from '../models/lineup.ts';
import { lsaRecipe, type LsaOptions } from '../models/lsa.ts';
import { sifRecipe, type SifOptions } from '../models/sif.ts';
import type { CorpusModelRecipe } from '../models/types.ts';
import { ranksFor, table } from './evaluate.ts';
import { keywordBaseline } from './keyword-baseline.ts';
import type { EvalQuestion } from './metrics.ts';

/** A setting to measure: a recipe, and what of each passage it is fitted on and embeds. */
interface Candidate {
  label: string;
  recipe: CorpusModelRecipe;
  textOf?: (passage: Passage) => string;
}

/** The chosen settings, and one step away from them on each axis. */
function candidates(): Candidate[] {
  const lsa = (o: Partial<LsaOptions>) => lsaRecipe({ ...LSA_SETTINGS, ...o });
  const sif = (o: Partial<SifOptions>) => sifRecipe({ ...SIF_SETTINGS, ...o });
  const withTitles = (p: Passage) => `${p.chapter.replace(/^Chapter [IVX]+: /, '')}. ${p.section ?? ''}. ${p.text}`;
  const recipes: CorpusModelRecipe[] = [
    lsa({}),
    lsa({ wordnet: false, lexical: 0, expansion: 0, dims: 48 }),
    lsa({ lexical: 0 }),
    lsa({ expansion: 0 }),
    lsa({ expansion: 0.6 }),
    lsa({ lexical: 0.5 }),
    lsa({ lexicalDims: 128 }),
    lsa({ lexicalDims: 1024 }),
    lsa({ lexicalDims: 256 }),
    lsa({ dims: 48 }),
    lsa({ dims: 128 }),
    sif({}),
    sif({ wordnet: false, expansion: 0, dims: 50 }),
    sif({ expansion: 0 }),
    sif({ expansion: 0.6 }),
    sif({ dims: 100 }),
    sif({ dims: 200 }),
    sif({ window: 3 }),
    sif({ a: 0.001 }),
  ];
  const label = (recipe: CorpusModelRecipe) => `${recipe.id} (${recipe.version})`;
  return [
    ...recipes.map((recipe) => ({ label: label(recipe), recipe })),
    // The chapter and section a passage stands in, as part of what it says.
    ...[lsa({}), sif({})].map((recipe) => ({ label: `${label(recipe)} + chapter titles`, recipe, textOf: withTitles })),
  ];
}

/** The measurements behind the lineup's settings: every candidate on the dev part only. */
export async function runSweep(dev: EvalQuestion[], corpusFile: string): Promise<void> {
  const corpus = await loadCorpus(corpusFile);
  const texts = corpus.passages.map((p) => p.text);
  const rows: Array<[string, Array<number | null>]> = [];
  for (const { label, recipe, textOf } of candidates()) {
    const fitted = textOf ? corpus.passages.map(textOf) : texts;
    const model = recipe.restore(recipe.fit(fitted));
    const index = new PassageIndex(model, stack(await model.embedPassages(fitted), model.dim));
    const search = async (query: string) => index.search(await model.embedQuery(query), 10).map((hit) => texts[hit.passage]!);
    rows.push([label, await ranksFor(search, dev)]);
  }
  const baseline = keywordBaseline(texts);
  rows.push(['keyword baseline (MiniSearch BM25)', await ranksFor((query) => baseline(query, 10).map((i) => texts[i]!), dev)]);
  console.log(`\nSettings measured on the dev part only (${dev.length} questions):\n`);
  console.log(table(rows, dev));
}
