import { existsSync } from 'node:fs';
import path from 'node:path';
import { lsaRecipe } from './lsa.ts';
import { QUERY_INSTRUCTION, requiredFiles, type NeuralDtype, type NeuralModelSpec } from './neural-files.ts';
import { sifRecipe } from './sif.ts';
import type { CorpusModelRecipe } from './types.ts';

/**
 * The weight-free lineup, chosen by `npm run eval` (README, "Evaluation"): LSA with 48 latent
 * topics, and SIF over 50-dimensional PPMI word vectors (window 5, a = 0.01).
 */
export const CORPUS_LINEUP: CorpusModelRecipe[] = [lsaRecipe(48), sifRecipe({ dims: 50, window: 5, a: 0.01 })];

export interface NeuralLineupSettings {
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

export function missingNeuralFiles(settings: NeuralLineupSettings): string[] {
  return neuralSpecs(settings)
    .flatMap((spec) => requiredFiles(spec, settings.modelDtype))
    .filter((file) => !existsSync(path.join(settings.modelsDir, file)));
}

export class LineupError extends Error {}

export type LineupKind = 'neural' | 'corpus';

/** `auto` takes the neural lineup when every file is present; `neural` insists; `corpus` never tries. */
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
