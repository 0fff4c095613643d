/** The retrieval engine: the lineup, fitting the weight-free models (fit/), the neural models and their files (models/), the engine that answers a question. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { loadOrBuildIndex } from './fit/build-index.ts';
export { buildIndexesInWorker, corpusIndexesMissing } from './fit/build-indexes-in-worker.ts';
export type { IndexWorkerData, WorkerBuildReport } from './fit/build-indexes-in-worker.ts';
export { lsaRecipe } from './fit/lsa-fit.ts';
export type { LsaOptions } from './fit/lsa-fit.ts';
export { sifRecipe } from './fit/sif-fit.ts';
export type { SifOptions } from './fit/sif-fit.ts';
export { loadWordVectors } from './fit/word-vectors.ts';
export { fetchModelsOnFirstStart } from './models/first-start-fetch.ts';
export { KeywordIndex } from './models/keyword-arm.ts';
export { LSA_SETTINGS, LineupError, SIF_SETTINGS, checkArenaArms, chooseLineup, neuralSpecs, servableModelTypes } from './models/lineup.ts';
export { pullModels } from './models/pull-models.ts';
export { ModelUnavailableError, UnknownModelError } from './retrieval-engine.ts';
export type { RetrievalEngine } from './retrieval-engine.ts';
export { startRetrieval } from './start-retrieval.ts';
export type { RetrievalLog, RetrievalSettings } from './start-retrieval.ts';
