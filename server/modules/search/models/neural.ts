import { AutoModel, AutoTokenizer, env, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from '@huggingface/transformers';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { normalise } from '../../../../common/search/linalg.ts';
import { onnxFileFor, type NeuralDtype, type NeuralModelSpec } from './neural-files.ts';

export { QUERY_INSTRUCTION, requiredFiles, onnxFileFor, type NeuralDtype, type NeuralModelSpec } from './neural-files.ts';
import type { EmbeddingModel } from '../../../../common/search/types.ts';

export interface NeuralOptions {
  modelsDir: string;
  dtype: NeuralDtype;
  /** Passages embedded per forward pass. */
  batchSize?: number;
  /** Tokens kept per text (both models were trained with 512). */
  maxLength?: number;
}

/**
 * Loads a model from MODELS_DIR with remote loading off: never a download at run time. CLS
 * pooling and L2 normalisation, as both BGE and UAE were trained.
 */
export async function loadNeuralModel(spec: NeuralModelSpec, options: NeuralOptions): Promise<EmbeddingModel> {
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = options.modelsDir.endsWith(path.sep) ? options.modelsDir : options.modelsDir + path.sep;
  const tokenizer: PreTrainedTokenizer = await AutoTokenizer.from_pretrained(spec.repo, { local_files_only: true });
  const model: PreTrainedModel = await AutoModel.from_pretrained(spec.repo, {
    local_files_only: true,
    dtype: options.dtype,
    device: 'cpu',
  });
  const config = model.config as unknown as { hidden_size: number };
  const dim = config.hidden_size;
  const weights = await stat(path.join(options.modelsDir, spec.repo, onnxFileFor(options.dtype)));
  const batchSize = options.batchSize ?? 16;
  const maxLength = options.maxLength ?? 512;

  const embed = async (texts: string[]): Promise<Float32Array[]> => {
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: maxLength });
    const output = (await model(inputs)) as { last_hidden_state: Tensor };
    const hidden = output.last_hidden_state;
    const [batch, sequence, width] = hidden.dims as [number, number, number];
    const data = hidden.data as Float32Array;
    // CLS pooling: the first token's final hidden state.
    return Array.from({ length: batch }, (_, b) => normalise(data.slice(b * sequence * width, b * sequence * width + width)));
  };

  const name = spec.repo.split('/').pop()!;
  return {
    id: name.toLowerCase(),
    family: spec.family,
    name,
    dim,
    // The weights file's size and time stand in for its content hash (hashing 337 MB at every start is slow).
    version: `${spec.repo}:${options.dtype}:${weights.size}:${Math.floor(weights.mtimeMs)}:${maxLength}`,
    embedQuery: async (text) => (await embed([spec.queryInstruction + text]))[0]!,
    async embedPassages(texts, onProgress) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        out.push(...(await embed(texts.slice(start, start + batchSize))));
        onProgress?.(out.length, texts.length);
      }
      return out;
    },
  };
}
