import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../server/platform/util/progress.ts';
import { chooseLineup } from '../../server/modules/search/models/lineup.ts';
import { QUERY_INSTRUCTION } from '../../server/modules/search/models/neural.ts';
import { pullModels, PullError } from '../../server/modules/search/models/pull-models.ts';
import { startStandInHub, type StandInHub } from '../fixtures/stand-in-hub.ts';
import { writeTinyBertFolder } from '../fixtures/tiny-bert.ts';
import { BGE_TOKENIZER, settingsFor } from './engine-helpers.ts';

describe('npm run models:pull', () => {
  let hub: StandInHub;
  let endpoint: string;

  beforeAll(async () => {
    const served = await mkdtemp(path.join(tmpdir(), 'hub-'));
    for (const repo of ['Xenova/bge-small-en-v1.5', 'test/tiny-bge', 'test/tiny-uae']) await writeTinyBertFolder(served, repo, BGE_TOKENIZER);
    hub = await startStandInHub(served);
    endpoint = hub.endpoint;
  });
  afterAll(() => hub.close());

  it('fetches both models in the hub layout, after which auto picks the neural lineup', async () => {
    const modelsDir = await mkdtemp(path.join(tmpdir(), 'pulled-'));
    const specs = [
      { repo: 'test/tiny-bge', family: 'BGE' as const, queryInstruction: QUERY_INSTRUCTION },
      { repo: 'test/tiny-uae', family: 'UAE' as const, queryInstruction: QUERY_INSTRUCTION },
    ];
    const files = await pullModels(specs, { endpoint, modelsDir, dtype: 'q8', progress: silentProgress });
    expect(files).toContain('test/tiny-uae/onnx/model_quantized.onnx');
    expect(existsSync(path.join(modelsDir, 'test/tiny-bge/tokenizer.json'))).toBe(true);
    const settings = await settingsFor({ modelsDir, bgeModel: 'test/tiny-bge', uaeModel: 'test/tiny-uae' });
    expect(chooseLineup('auto', settings)).toBe('neural');
  });

  it('refuses weights whose sha256 differs from the published one, and removes them', async () => {
    const modelsDir = await mkdtemp(path.join(tmpdir(), 'pulled-'));
    const specs = [{ repo: 'Xenova/bge-small-en-v1.5', family: 'BGE' as const, queryInstruction: QUERY_INSTRUCTION }];
    const pulling = pullModels(specs, { endpoint, modelsDir, dtype: 'q8', progress: silentProgress });
    await expect(pulling).rejects.toThrow(PullError);
    await expect(pulling).rejects.toThrow(/onnx\/model_quantized\.onnx: checksum mismatch/);
    expect(existsSync(path.join(modelsDir, 'Xenova/bge-small-en-v1.5/onnx/model_quantized.onnx'))).toBe(false);
  });

  it('says which file the hub did not have', async () => {
    const modelsDir = await mkdtemp(path.join(tmpdir(), 'pulled-'));
    const specs = [{ repo: 'test/absent', family: 'UAE' as const, queryInstruction: QUERY_INSTRUCTION }];
    await expect(pullModels(specs, { endpoint, modelsDir, dtype: 'q8', progress: silentProgress })).rejects.toThrow(
      /test\/absent\/resolve\/main\/config\.json: HTTP 404/,
    );
  });
});
