import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../server/index/progress.ts';
import { chooseLineup } from '../../server/models/lineup.ts';
import { QUERY_INSTRUCTION } from '../../server/models/neural.ts';
import { pullModels, PullError } from '../../server/models/pull-models.ts';
import { writeTinyBertFolder } from '../fixtures/tiny-bert.ts';
import { BGE_TOKENIZER, settingsFor } from './engine-helpers.ts';

/** A stand-in for the hub on loopback, serving `/{repo}/resolve/main/{file}` from a folder. */
describe('npm run models:pull', () => {
  let hub: Server;
  let endpoint: string;
  const requests: string[] = [];

  beforeAll(async () => {
    const served = await mkdtemp(path.join(tmpdir(), 'hub-'));
    for (const repo of ['Xenova/bge-small-en-v1.5', 'test/tiny-bge', 'test/tiny-uae']) await writeTinyBertFolder(served, repo, BGE_TOKENIZER);
    hub = createServer(async (req, res) => {
      requests.push(req.url ?? '');
      const match = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(req.url ?? '');
      const file = match ? path.join(served, match[1]!, match[2]!) : '';
      if (!match || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
    const address = hub.address();
    endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => hub.close(() => resolve())));

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
