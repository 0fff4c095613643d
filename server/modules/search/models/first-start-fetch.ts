import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Progress } from '../../../platform/util/progress.ts';
import { missingNeuralFiles, neuralSpecs, type NeuralLineupSettings } from './lineup.ts';
import { pullModels, PullError } from './pull-models.ts';

export interface FirstStartFetchSettings extends NeuralLineupSettings {
  dataDir: string;
  modelLineup: 'auto' | 'neural' | 'corpus';
  /** `auto`: fetch on a first start where the hub answers; `never`: don't (the tests always say never). */
  modelFetch: 'auto' | 'never';
  hfEndpoint: string;
}

type Log = { info(msg: string): void; warn(msg: string): void };

/** What the last attempt came to, kept in DATA_DIR: a start tries only once, unless one was cut short. */
interface FetchRecord {
  outcome: 'fetching' | 'fetched' | 'unreachable' | 'failed';
  at: string;
  detail?: string;
}

/** How long the hub may take to start answering before the start goes on without it. */
const HUB_ANSWER_TIMEOUT_MS = 3000;

export type FirstStartFetchOutcome = 'not-needed' | 'skipped' | 'fetched' | 'unreachable' | 'failed';

/**
 * On a first start with the `auto` lineup and the neural weights absent, fetches them from the
 * hub into MODELS_DIR (with progress, sha256 checked, resuming a download a previous start left
 * half done), so the reader gets BGE and UAE. Where the hub does not answer within a few seconds,
 * one log line says so and the start goes on with the weight-free lineup; that start is recorded,
 * and later starts do not try again (`npm run models:pull` does, by hand). Never while serving.
 */
export async function fetchModelsOnFirstStart(
  settings: FirstStartFetchSettings,
  log: Log,
  progress: (label: string, total: number) => Progress,
): Promise<FirstStartFetchOutcome> {
  if (settings.modelLineup !== 'auto' || missingNeuralFiles(settings).length === 0) return 'not-needed';
  if (settings.modelFetch === 'never') return 'skipped';
  const recordFile = path.join(settings.dataDir, 'model-fetch.json');
  const previous = existsSync(recordFile) ? (JSON.parse(await readFile(recordFile, 'utf8')) as FetchRecord) : undefined;
  if (previous && previous.outcome !== 'fetching') return 'skipped';
  const record = async (outcome: FetchRecord['outcome'], detail?: string) => {
    await mkdir(settings.dataDir, { recursive: true });
    await writeFile(recordFile, JSON.stringify({ outcome, at: new Date().toISOString(), detail }) + '\n');
  };

  const missingBefore = missingNeuralFiles(settings).length;
  await record('fetching');
  log.info(`fetching the neural models from ${settings.hfEndpoint} into ${settings.modelsDir} (first start; MODEL_FETCH=never to skip)`);
  try {
    await pullModels(neuralSpecs(settings), {
      endpoint: settings.hfEndpoint,
      modelsDir: settings.modelsDir,
      dtype: settings.modelDtype,
      progress,
      answerTimeoutMs: HUB_ANSWER_TIMEOUT_MS,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof PullError && /HTTP \d|checksum/.test(reason)) {
      await record('failed', reason);
      log.warn(`fetching the neural models failed (${reason}): serving the weight-free lineup; npm run models:pull tries again`);
      return 'failed';
    }
    if (missingNeuralFiles(settings).length === missingBefore && !(await anyPartialDownload(settings))) {
      await record('unreachable', reason);
      log.warn(`the model hub cannot be reached (${reason}): serving the weight-free lineup; npm run models:pull fetches the models later`);
      return 'unreachable';
    }
    // Cut off half-way: the record still says fetching, so the next start resumes where this stopped.
    log.warn(`fetching the neural models was interrupted (${reason}): serving the weight-free lineup; the next start resumes it`);
    return 'failed';
  }
  await record('fetched');
  log.info('neural models fetched and verified');
  return 'fetched';
}

async function anyPartialDownload(settings: NeuralLineupSettings): Promise<boolean> {
  return missingNeuralFiles(settings).some((file) => existsSync(path.join(settings.modelsDir, `${file}.part`)));
}
