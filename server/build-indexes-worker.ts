// A worker thread's entry point (search/build-indexes-in-worker.ts starts it): fits the
// weight-free models and embeds the book into DATA_DIR's caches, reports, and ends.
import { parentPort, workerData } from 'node:worker_threads';
import { terminalProgress, type ProgressStream } from './platform/util/progress.ts';
import type { IndexWorkerData, WorkerBuildReport } from './modules/search/index.ts';
import { startRetrieval, type RetrievalLog } from './modules/search/index.ts';

const { settings, progressTTY } = workerData as IndexWorkerData;
const stderr: ProgressStream = { isTTY: progressTTY, write: (chunk: string) => process.stderr.write(chunk) };
const report: WorkerBuildReport = { models: [] };
// The main thread logs what it then loads; here only what became of each model is noted.
const log: RetrievalLog = {
  info: (fields) => {
    if (fields.model) report.models.push({ id: fields.model, fromCache: Boolean(fields.fromCache) });
  },
  warn: () => undefined,
  error: (fields) => {
    const detail = fields.err instanceof Error ? fields.err.message : 'failed';
    if (fields.model) report.models.push({ id: fields.model, fromCache: false, error: detail });
  },
};
await startRetrieval(settings, log, (label, total) => terminalProgress(label, total, stderr));
parentPort?.postMessage(report);
