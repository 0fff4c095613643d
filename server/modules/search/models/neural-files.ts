import path from 'node:path';

// What a neural model's folder must hold, kept apart so that checking it never loads transformers.js.
/** A neural model of the lineup: where its files live on the hub, and how it is shown. */
export interface NeuralModelSpec {
  /** Hub repository, also the folder under MODELS_DIR: `Xenova/bge-small-en-v1.5`. */
  repo: string;
  family: 'BGE' | 'UAE';
  /** BGE and UAE (prompt C) both take this before a query, and nothing before a passage. */
  queryInstruction: string;
}

export type NeuralDtype = 'q8' | 'fp32';

export const QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

/** The ONNX file transformers.js loads for a dtype. */
export function onnxFileFor(dtype: NeuralDtype): string {
  return dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
}

/** Every file a model folder must hold for offline loading. */
export function requiredFiles(spec: NeuralModelSpec, dtype: NeuralDtype): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFileFor(dtype)].map((f) => path.join(spec.repo, f));
}
