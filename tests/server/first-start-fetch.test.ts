import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../server/platform/util/progress.ts';
import { fetchModelsOnFirstStart, type FirstStartFetchSettings } from '../../server/modules/search/models/first-start-fetch.ts';
import { chooseLineup } from '../../server/modules/search/models/lineup.ts';
import { KNOWN_WEIGHTS } from '../../server/modules/search/models/pull-models.ts';
import { startStandInHub, type StandInHub } from '../fixtures/stand-in-hub.ts';
import { writeTinyBertFolder } from '../fixtures/tiny-bert.ts';
import { BGE_TOKENIZER } from './engine-helpers.ts';

const WEIGHTS = 'onnx/model_quantized.onnx';

describe('fetching the neural models on a first start', () => {
  let hub: StandInHub;
  let served: string;

  beforeAll(async () => {
    served = await mkdtemp(path.join(tmpdir(), 'hub-'));
    for (const repo of ['test/tiny-bge', 'test/tiny-uae', 'test/bad-bge']) await writeTinyBertFolder(served, repo, BGE_TOKENIZER);
    hub = await startStandInHub(served);
  });
  afterAll(() => hub.close());

  async function settings(overrides: Partial<FirstStartFetchSettings> = {}): Promise<FirstStartFetchSettings> {
    return {
      dataDir: await mkdtemp(path.join(tmpdir(), 'data-')),
      modelsDir: await mkdtemp(path.join(tmpdir(), 'models-')),
      modelLineup: 'auto',
      modelFetch: 'auto',
      hfEndpoint: hub.endpoint,
      bgeModel: 'test/tiny-bge',
      uaeModel: 'test/tiny-uae',
      modelDtype: 'q8',
      ...overrides,
    };
  }
  const lines: string[] = [];
  const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };

  it('fetches both models where the hub answers, after which the neural lineup is served', async () => {
    const s = await settings();
    expect(chooseLineup('auto', s)).toBe('corpus');
    expect(await fetchModelsOnFirstStart(s, log, silentProgress)).toBe('fetched');
    expect(chooseLineup('auto', s)).toBe('neural');
    // Nothing to do on the next start.
    expect(await fetchModelsOnFirstStart(s, log, silentProgress)).toBe('not-needed');
  });

  it('goes on at once with the weight-free lineup where the hub cannot be reached, and says so once', async () => {
    const s = await settings({ hfEndpoint: 'http://127.0.0.1:9' });
    lines.length = 0;
    expect(await fetchModelsOnFirstStart(s, log, silentProgress)).toBe('unreachable');
    expect(lines.filter((l) => l.includes('cannot be reached'))).toHaveLength(1);
    expect(chooseLineup('auto', s)).toBe('corpus');
    // A later start does not try again.
    expect(await fetchModelsOnFirstStart(s, log, silentProgress)).toBe('skipped');
  });

  it('resumes an interrupted download where it stopped, on the next start', async () => {
    const s = await settings();
    hub.cutOffNext(`test/tiny-uae/resolve/main/${WEIGHTS}`);
    expect(await fetchModelsOnFirstStart(s, log, silentProgress)).toBe('failed');
    const part = path.join(s.modelsDir, 'test/tiny-uae', `${WEIGHTS}.part`);
    expect(existsSync(part)).toBe(true);
    expect(JSON.parse(await readFile(path.join(s.dataDir, 'model-fetch.json'), 'utf8'))).toMatchObject({ outcome: 'fetching' });

    const before = hub.requests.length;
    expect(await fetchModelsOnFirstStart(s, log, silentProgress)).toBe('fetched');
    const resumed = hub.requests.slice(before);
    // Only the unfinished file is asked for again, from where it stopped.
    expect(resumed).toEqual([{ url: `/test/tiny-uae/resolve/main/${WEIGHTS}`, range: expect.stringMatching(/^bytes=\d+-$/) }]);
    const whole = await readFile(path.join(served, 'test/tiny-uae', WEIGHTS));
    expect(Buffer.compare(await readFile(path.join(s.modelsDir, 'test/tiny-uae', WEIGHTS)), whole)).toBe(0);
  });

  it('refuses weights whose sha256 differs from the published one, and serves the weight-free lineup', async () => {
    const s = await settings({ bgeModel: 'test/bad-bge' });
    KNOWN_WEIGHTS[`test/bad-bge/${WEIGHTS}`] = { sha256: '0'.repeat(64) };
    try {
      lines.length = 0;
      expect(await fetchModelsOnFirstStart(s, log, silentProgress)).toBe('failed');
      expect(lines.join('\n')).toMatch(/checksum mismatch/);
      expect(existsSync(path.join(s.modelsDir, 'test/bad-bge', WEIGHTS))).toBe(false);
      expect(chooseLineup('auto', s)).toBe('corpus');
    } finally {
      delete KNOWN_WEIGHTS[`test/bad-bge/${WEIGHTS}`];
    }
  });

  it('never fetches with MODEL_FETCH=never, nor for a lineup other than auto', async () => {
    const before = hub.requests.length;
    expect(await fetchModelsOnFirstStart(await settings({ modelFetch: 'never' }), log, silentProgress)).toBe('skipped');
    expect(await fetchModelsOnFirstStart(await settings({ modelLineup: 'corpus' }), log, silentProgress)).toBe('not-needed');
    expect(hub.requests.length).toBe(before);
  });
});
