import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseLineup, LineupError, missingNeuralFiles } from '../../server/modules/search/models/lineup.ts';
import { loadNeuralModel, QUERY_INSTRUCTION } from '../../server/modules/search/models/neural.ts';
import type { EmbeddingModel } from '../../common/search/types.ts';
import { silentProgress } from '../../server/platform/util/progress.ts';
import { startRetrieval } from '../../server/modules/search/start-retrieval.ts';
import { TINY, tinyForward, tinyWeights, writeTinyBertFolder } from '../fixtures/tiny-bert.ts';
import { BGE_TOKENIZER, quietLog, settingsFor } from './engine-helpers.ts';

const BGE = 'Xenova/bge-small-en-v1.5';
const UAE = 'WhereIsAI/UAE-Large-V1';
// The models README gives these ids for BGE's instruction + 'What is a panda?'.
const PANDA_QUERY_IDS = [101, 5050, 2023, 6251, 2005, 6575, 7882, 13768, 1024, 2054, 2003, 1037, 25462, 1029, 102];
const PANDA_PASSAGE_IDS = [101, 2054, 2003, 1037, 25462, 1029, 102];

function expectedCls(ids: number[]): number[] {
  const cls = tinyForward(tinyWeights(), ids)[0]!;
  const n = Math.hypot(...cls);
  return Array.from(cls, (x) => x / n);
}

function expectClose(actual: Float32Array, expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((x, i) => expect(x).toBeCloseTo(expected[i]!, 5));
}

describe('the neural lineup, driven through the production code with a tiny generated BERT', () => {
  let modelsDir: string;
  let model: EmbeddingModel;
  /** One DATA_DIR for the engines started here: the weight-free models are fitted once, then loaded from its cache. */
  let sharedDataDir: string;

  beforeAll(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'models-'));
    sharedDataDir = await mkdtemp(path.join(tmpdir(), 'engine-'));
    await writeTinyBertFolder(modelsDir, BGE, BGE_TOKENIZER);
    await writeTinyBertFolder(modelsDir, UAE, BGE_TOKENIZER);
    model = await loadNeuralModel({ repo: BGE, family: 'BGE', queryInstruction: QUERY_INSTRUCTION }, { modelsDir, dtype: 'q8', batchSize: 2 });
  });

  it('reports the hidden size as its dimension and the BGE family', () => {
    expect(model.dim).toBe(TINY.hidden);
    expect(`${model.family} ${model.name}`).toBe('BGE bge-small-en-v1.5');
  });

  it('puts the instruction before queries only, pools the CLS token and normalises', async () => {
    expectClose(await model.embedQuery('What is a panda?'), expectedCls(PANDA_QUERY_IDS));
    const [passage] = await model.embedPassages(['What is a panda?']);
    expectClose(passage!, expectedCls(PANDA_PASSAGE_IDS));
    expect(Math.hypot(...passage!)).toBeCloseTo(1, 6);
  });

  it('embeds in batches, padding included, exactly as one text at a time', async () => {
    const texts = ['What is a panda?', 'Knowledge of self is the key to the knowledge of God.', 'Patience.', 'The heart is a mirror.', 'Love.'];
    const progress: number[] = [];
    const batched = await model.embedPassages(texts, (done) => progress.push(done));
    expect(progress).toEqual([2, 4, 5]);
    for (const [i, text] of texts.entries()) {
      const [alone] = await model.embedPassages([text]);
      expectClose(batched[i]!, Array.from(alone!));
    }
  });

  it('is chosen by auto when every file is present, and then adds BGE and UAE to the pool, served side by side', async () => {
    const settings = await settingsFor({ modelsDir, modelLineup: 'auto', dataDir: sharedDataDir });
    expect(chooseLineup('auto', settings)).toBe('neural');
    const engine = await startRetrieval(settings, quietLog, silentProgress);
    expect(engine.kind).toBe('neural');
    expect(engine.pool().map((arm) => arm.id)).toEqual(['bge-small-en-v1.5', 'uae-large-v1', 'lsa-96', 'sif-150', 'bm25']);
    const results = await engine.search('the love of God', 2, ['bge-small-en-v1.5', 'uae-large-v1']);
    expect(results.map((r) => r.model_type)).toEqual([
      'BGE bge-small-en-v1.5',
      'UAE UAE-Large-V1',
      'BGE bge-small-en-v1.5',
      'UAE UAE-Large-V1',
    ]);
    // The weight-free models are fitted here, beside the tiny BERTs.
  }, 120_000);

  it('names every missing file and the pull command when MODEL_LINEUP=neural lacks weights', async () => {
    const partial = await mkdtemp(path.join(tmpdir(), 'partial-'));
    await writeTinyBertFolder(partial, BGE, BGE_TOKENIZER);
    await rm(path.join(partial, BGE, 'onnx', 'model_quantized.onnx'));
    const settings = await settingsFor({ modelsDir: partial });
    expect(missingNeuralFiles(settings)).toEqual([
      path.join(BGE, 'onnx/model_quantized.onnx'),
      path.join(UAE, 'config.json'),
      path.join(UAE, 'tokenizer.json'),
      path.join(UAE, 'tokenizer_config.json'),
      path.join(UAE, 'onnx/model_quantized.onnx'),
    ]);
    expect(() => chooseLineup('neural', settings)).toThrow(LineupError);
    expect(() => chooseLineup('neural', settings)).toThrow(/npm run models:pull/);
    expect(() => chooseLineup('neural', settings)).toThrow(/UAE-Large-V1\/onnx\/model_quantized\.onnx/);
    expect(chooseLineup('auto', settings)).toBe('corpus');
    expect(chooseLineup('corpus', await settingsFor({ modelsDir }))).toBe('corpus');
  });

  it('keeps a model that fails to load in the lineup as unavailable', async () => {
    const broken = await mkdtemp(path.join(tmpdir(), 'broken-'));
    await writeTinyBertFolder(broken, BGE, BGE_TOKENIZER);
    await writeTinyBertFolder(broken, UAE, BGE_TOKENIZER);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(broken, UAE, 'onnx', 'model_quantized.onnx'), 'not an onnx file');
    const engine = await startRetrieval(await settingsFor({ modelsDir: broken, dataDir: sharedDataDir }), quietLog, silentProgress);
    expect(engine.models().map((m) => [m.id, m.status])).toEqual([
      ['bge-small-en-v1.5', 'ready'],
      ['uae-large-v1', 'unavailable'],
      ['lsa-96', 'ready'],
      ['sif-150', 'ready'],
      ['bm25', 'ready'],
    ]);
    await expect(engine.search('love', 1, 'uae-large-v1')).rejects.toThrow(/UAE UAE-Large-V1 model cannot be served/);
    expect(await engine.search('love', 1, 'bge-small-en-v1.5')).toHaveLength(1);
    // The arena never draws it.
    expect(engine.pool().map((arm) => arm.id)).toEqual(['bge-small-en-v1.5', 'lsa-96', 'sif-150', 'bm25']);
  }, 120_000);
});
