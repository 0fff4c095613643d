import { existsSync } from 'node:fs';
import path from 'node:path';
import { ArmsError, parseArms, type ArmSpec } from './arms.ts';
import { KEYWORD_ARM } from './keyword-arm.ts';
import { LineupError } from './lineup-error.ts';
import { lsaRecipe } from '../fit/lsa-fit.ts';
import { QUERY_INSTRUCTION, requiredFiles, type NeuralDtype, type NeuralModelSpec } from './neural-files.ts';
import { sifRecipe } from '../fit/sif-fit.ts';
import { modelType, type CorpusModelRecipe, type ModelResources } from '../../../../common/search/types.ts';

/**
 * The weight-free lineup, chosen on the dev questions by `npm run eval -- --sweep` (README,
 * "Evaluation"): LSA with 96 latent topics beside its lexical tf-idf evidence (projected to
 * 256 dense dimensions: with the glosses, as good on the dev part as 512, and a question's scan
 * of its passages, sentences and gloss lines costs no more than the 512 did without them), and SIF over
 * 150-dimensional PPMI word vectors (window 5, a = 0.01); both with WordNet (archaic and
 * inflected forms modernised, a query word also counting 0.3 for its relatives in the book),
 * both with general English (GloVe word vectors, english-block.ts) beside the book's own
 * evidence, both ranking a passage by its closest sentence as well as by itself, and both reading
 * a query word also as the book's words the reader's thesaurus gives for it (reader-thesaurus.ts),
 * at 0.7 (a word the book never uses: in full). Both index each passage's gloss (corpus/glosses.json,
 * a few lines in a modern reader's words) beside its text at weight 1, its lines ranked as its
 * sentences are, and both read a misspelt query word as the word it most likely stands for
 * (spelling.ts). docs/search-quality.md has the measurements.
 */
export const LSA_SETTINGS = {
  dims: 96,
  lexical: 1,
  lexicalDims: 256,
  expansion: 0.45,
  wordnet: true,
  english: 0.7,
  englishA: 1e-3,
  sentenceWeight: 0.6,
  glossary: 0.7,
  gloss: 1,
  typos: true,
};
export const SIF_SETTINGS = {
  dims: 150,
  window: 5,
  a: 0.01,
  wordnet: true,
  expansion: 0.3,
  english: 0.7,
  englishA: 1e-3,
  sentenceWeight: 0.6,
  glossary: 0.7,
  gloss: 1,
  typos: true,
};

export { LineupError };

/** An arm's recipe: the served settings of its kind, changed as the arm says, under the arm's id. */
function armRecipe(arm: ArmSpec, resources: ModelResources): CorpusModelRecipe {
  const recipe = arm.kind === 'lsa' ? lsaRecipe({ ...LSA_SETTINGS, ...arm.settings }, resources) : sifRecipe({ ...SIF_SETTINGS, ...arm.settings }, resources);
  if (recipe.id === arm.id) return recipe;
  // Another id (two LSAs of 96 topics, one without glosses): the index cache and the model go by it.
  return { ...recipe, id: arm.id, fit: recipe.fit, restore: (state) => ({ ...recipe.restore(state), id: arm.id }) };
}

/**
 * The pool's weight-free vector models (ARENA_ARMS, else LSA and SIF as served), drawing on
 * these resources (general English word vectors). Two arms whose votes would carry the same
 * model_type are refused: a vote must name one arm.
 */
export function corpusLineup(resources: ModelResources, armsSetting?: unknown): CorpusModelRecipe[] {
  const arms = parseArms(armsSetting);
  const recipes = arms.filter((arm) => arm.kind !== 'bm25').map((arm) => armRecipe(arm, resources));
  const named = new Map<string, string>();
  for (const recipe of recipes) {
    const type = modelType(recipe);
    const other = named.get(type);
    if (other) throw new ArmsError(`ARENA_ARMS: arms ${other} and ${recipe.id} would both be "${type}" in votes: change a setting that shows in the name (dims, lexical, english, wordnet, glossary, gloss)`);
    named.set(type, recipe.id);
  }
  return recipes;
}

/** ARENA_ARMS checked whole (each arm, and no two arms under one model_type): an ArmsError says what is wrong. */
export function checkArenaArms(armsSetting: unknown): void {
  corpusLineup({}, armsSetting);
}

/** Whether the pool serves the keyword arm (BM25). */
export function servesKeywordArm(armsSetting?: unknown): boolean {
  return parseArms(armsSetting).some((arm) => arm.kind === 'bm25');
}

/** The arms' kinds in the pool's order: where the keyword arm stands among the vector models. */
export function armOrder(armsSetting?: unknown): string[] {
  return parseArms(armsSetting).map((arm) => arm.id);
}

/** Whether the weight-free lineup needs general English word vectors (to load them only then). */
export function corpusLineupNeedsWords(armsSetting?: unknown): boolean {
  return parseArms(armsSetting).some((arm) => arm.kind !== 'bm25' && ((arm.settings.english as number | undefined) ?? (arm.kind === 'lsa' ? LSA_SETTINGS : SIF_SETTINGS).english) > 0);
}

export interface NeuralLineupSettings {
  /** ARENA_ARMS as read (JSON), or undefined for the served pool: checked by parseArms. */
  arenaArms?: unknown;
  modelsDir: string;
  bgeModel: string;
  uaeModel: string;
  modelDtype: NeuralDtype;
}

export function neuralSpecs(settings: NeuralLineupSettings): NeuralModelSpec[] {
  return [
    { repo: settings.bgeModel, family: 'BGE', queryInstruction: QUERY_INSTRUCTION },
    { repo: settings.uaeModel, family: 'UAE', queryInstruction: QUERY_INSTRUCTION },
  ];
}

/**
 * The names votes carry (model_type) for every model either lineup of this version serves (the
 * weight-free models and the keyword arm always, BGE and UAE where their weights are), the one
 * running or not: a service moved from one lineup to the other still counts the votes the first
 * one earned.
 */
export function servableModelTypes(settings: NeuralLineupSettings): string[] {
  const neural = neuralSpecs(settings).map((spec) => modelType({ family: spec.family, name: spec.repo.split('/').pop()! }));
  const keyword = servesKeywordArm(settings.arenaArms) ? [modelType(KEYWORD_ARM)] : [];
  return [...neural, ...corpusLineup({}, settings.arenaArms).map((recipe) => modelType(recipe)), ...keyword];
}

export function missingNeuralFiles(settings: NeuralLineupSettings): string[] {
  return neuralSpecs(settings)
    .flatMap((spec) => requiredFiles(spec, settings.modelDtype))
    .filter((file) => !existsSync(path.join(settings.modelsDir, file)));
}

export type LineupKind = 'neural' | 'corpus';

/**
 * `auto` takes the neural lineup when every file is present; `neural` insists; `corpus` never tries.
 * Either way the weight-free models and the keyword arm are served too: the neural lineup adds
 * BGE and UAE to the pool.
 */
export function chooseLineup(mode: 'auto' | 'neural' | 'corpus', settings: NeuralLineupSettings): LineupKind {
  if (mode === 'corpus') return 'corpus';
  const missing = missingNeuralFiles(settings);
  if (missing.length === 0) return 'neural';
  if (mode === 'auto') return 'corpus';
  throw new LineupError(
    [
      `MODEL_LINEUP=neural, but these files are missing from ${settings.modelsDir}:`,
      ...missing.map((f) => `  ${f}`),
      'Fetch them on a machine with internet access with: npm run models:pull',
      '(or set MODEL_LINEUP=auto to fall back to the weight-free lineup)',
    ].join('\n'),
  );
}
