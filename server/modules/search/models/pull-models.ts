import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Progress } from '../../../platform/util/progress.ts';
import { onnxFileFor, type NeuralDtype, type NeuralModelSpec } from './neural-files.ts';

/** Published sizes and hashes of the weights (the models' publishers; tests/fixtures/bge-small-en-v1.5 holds bge-small's tokenizer). */
export const KNOWN_WEIGHTS: Record<string, { size?: number; sha256: string }> = {
  'Xenova/bge-small-en-v1.5/onnx/model_quantized.onnx': {
    size: 34_014_426,
    sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
  },
  'Xenova/bge-small-en-v1.5/onnx/model.onnx': {
    size: 133_093_490,
    sha256: '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35',
  },
  'WhereIsAI/UAE-Large-V1/onnx/model_quantized.onnx': {
    sha256: 'b2c10399acd8acaa6e390d5cddde9e0c16581d393b63915a2fe8d280b4d9119d',
  },
  'Xenova/UAE-Large-V1/onnx/model_quantized.onnx': {
    sha256: 'b2c10399acd8acaa6e390d5cddde9e0c16581d393b63915a2fe8d280b4d9119d',
  },
};

const SMALL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json'];

export interface PullOptions {
  endpoint: string;
  modelsDir: string;
  dtype: NeuralDtype;
  progress: (label: string, total: number) => Progress;
  fetch?: typeof fetch;
  /** How long to wait for the hub to start answering a file (not for the whole file). */
  answerTimeoutMs?: number;
}

export class PullError extends Error {}

async function sizeOf(file: string): Promise<number> {
  return existsSync(file) ? (await stat(file)).size : 0;
}

/** What a file already on disk hashes to, so that a resumed download's hash covers all of it. */
async function hashFile(file: string, hash: ReturnType<typeof createHash>): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
}

/**
 * Downloads one file to `.part`, hashing as it goes, then renames it into place. A `.part` left by
 * an interrupted download is resumed with a Range request (or started again when the hub sends
 * the whole file).
 */
async function download(url: string, target: string, options: PullOptions, label: string): Promise<{ sha256: string; size: number }> {
  const part = `${target}.part`;
  await mkdir(path.dirname(target), { recursive: true });
  let have = await sizeOf(part);
  const answered = new AbortController();
  const timer = setTimeout(() => answered.abort(), options.answerTimeoutMs ?? 15_000);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      redirect: 'follow',
      signal: answered.signal,
      headers: have > 0 ? { range: `bytes=${have}-` } : {},
    });
  } catch (error) {
    throw new PullError(`${url}: ${answered.signal.aborted ? 'no answer in time' : ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 416 && have > 0) {
    // The part already holds the whole file.
    await response.body?.cancel();
  } else if (!response.ok || !response.body) {
    throw new PullError(`${url}: HTTP ${response.status}`);
  }
  if (response.status !== 206 && response.status !== 416) have = 0; // the whole file came: start over
  const total = have + Number(response.headers.get('content-length') ?? 0);
  const progress = options.progress(have > 0 ? `${label} (resumed)` : label, Math.max(total, 1));
  const hash = createHash('sha256');
  if (have > 0) await hashFile(part, hash);
  let size = have;
  if (response.status !== 416) {
    const body = Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
      progress.update(Math.min(size, Math.max(total, 1)));
    });
    await pipeline(body, createWriteStream(part, { flags: have > 0 ? 'a' : 'w' }));
  }
  progress.finish(`${(size / 1e6).toFixed(1)} MB`);
  await rename(part, target);
  return { sha256: hash.digest('hex'), size };
}

/**
 * Fetches each model's tokenizer, config and ONNX weights into MODELS_DIR in the hub's layout,
 * and checks the weights against their published sha256. A mismatch deletes the file.
 */
export async function pullModels(specs: NeuralModelSpec[], options: PullOptions): Promise<string[]> {
  const fetched: string[] = [];
  for (const spec of specs) {
    for (const file of [...SMALL_FILES, onnxFileFor(options.dtype)]) {
      const relative = `${spec.repo}/${file}`;
      const target = path.join(options.modelsDir, spec.repo, file);
      // A file a previous run finished (and checked) is kept: a run that stopped half-way goes on.
      if (existsSync(target)) {
        fetched.push(relative);
        continue;
      }
      const url = `${options.endpoint.replace(/\/$/, '')}/${spec.repo}/resolve/main/${file}`;
      const { sha256, size } = await download(url, target, options, relative);
      const known = KNOWN_WEIGHTS[relative];
      if (known && (known.sha256 !== sha256 || (known.size !== undefined && known.size !== size))) {
        await rm(target, { force: true });
        throw new PullError(`${relative}: checksum mismatch (got sha256 ${sha256}, ${size} bytes; expected ${known.sha256}). File removed.`);
      }
      fetched.push(relative);
    }
  }
  return fetched;
}
