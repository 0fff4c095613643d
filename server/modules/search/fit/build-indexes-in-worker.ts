import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CorpusError } from '../../book/index.ts';
import { corpusLineup } from '../models/lineup.ts';
import { cacheFile } from './build-index.ts';
import type { RetrievalSettings } from '../start-retrieval.ts';

/** What the worker thread reports: each model, whether it was already cached, and why it failed. */
export interface WorkerBuildReport {
  models: Array<{ id: string; fromCache: boolean; error?: string }>;
}

/** What the worker thread is given. */
export interface IndexWorkerData {
  settings: RetrievalSettings;
  /** Whether the main thread's stderr is a terminal: progress then redraws a bar, as it would there. */
  progressTTY: boolean;
}

/**
 * Whether the weight-free lineup has no index cached in `dataDir` yet (a first start, or a new
 * model): then fitting it in a worker thread pays. A cached index of an older version is still
 * rebuilt, by the main thread, as before.
 */
export function corpusIndexesMissing(dataDir: string, armsSetting?: unknown): boolean {
  const cacheDir = path.join(dataDir, 'vectors');
  return corpusLineup({}, armsSetting).some((recipe) => !existsSync(cacheFile(cacheDir, recipe.id)));
}

/**
 * Fits the weight-free models and embeds the book in a worker thread (the entry at `workerUrl`,
 * build-indexes-worker.ts), which leaves them in DATA_DIR's caches for the main thread to load,
 * as a restart does. Meanwhile the main thread opens the store on the other core instead of
 * after the fit, and the fit's garbage goes with the worker instead of staying in the server.
 */
export function buildIndexesInWorker(workerUrl: URL, settings: RetrievalSettings): Promise<WorkerBuildReport> {
  const workerData: IndexWorkerData = { settings, progressTTY: Boolean(process.stderr.isTTY) };
  return new Promise((resolve, reject) => {
    let report: WorkerBuildReport | undefined;
    const worker = new Worker(workerUrl, { workerData });
    worker.once('message', (message: WorkerBuildReport) => (report = message));
    // An error crosses the thread as a plain Error with its name: a book that cannot be had is
    // given its type back, so that the start ends in its one sentence as on the main thread.
    worker.once('error', (error) => reject(error.name === 'CorpusError' ? new CorpusError(error.message, error) : error));
    worker.once('exit', (code) => {
      if (code === 0 && report) resolve(report);
      else reject(new Error(`the index builder thread exited with code ${code}${report ? '' : ' before reporting'}`));
    });
  });
}
