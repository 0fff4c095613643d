import { restoreLsa, type LsaOptions } from './lsa.ts';
import { restoreSif, type SifOptions } from './sif.ts';
import type { EmbeddingModel, FittedState, ModelIdentity, ModelResources } from './types.ts';

/** Which weight-free model a fitted state is, with the settings it was fitted with: all a restore needs beside the state. */
export type QueryRecipe = { kind: 'lsa'; options: LsaOptions } | { kind: 'sif'; options: SifOptions };

/**
 * A weight-free model restored from its fitted state, keeping what restored it: from it the
 * server builds the offline pack, and a device restores the same model again.
 */
export interface RestoredModel extends EmbeddingModel {
  readonly restoredFrom: { recipe: QueryRecipe; state: FittedState; resources: ModelResources };
}

/** The weight-free model a recipe names, from its fitted state: on the server and on a device alike. */
export function restoreQueryModel(recipe: QueryRecipe, state: FittedState, resources: ModelResources, identity: ModelIdentity): RestoredModel {
  const model = recipe.kind === 'lsa' ? restoreLsa(state, recipe.options, resources, identity) : restoreSif(state, recipe.options, resources, identity);
  return { ...model, restoredFrom: { recipe, state, resources } };
}

export function isRestoredModel(model: EmbeddingModel): model is RestoredModel {
  return 'restoredFrom' in model;
}
