import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndexesInWorker, corpusIndexesMissing } from '../../server/modules/search/fit/build-indexes-in-worker.ts';
import { settingsFor } from './engine-helpers.ts';

/** The worker's entry as npm start runs it (npm test builds before it runs the tests). */
const BUILT_WORKER = new URL('../../dist-server/build-indexes-worker.js', import.meta.url);

describe('building the weight-free indexes in a worker thread', () => {
  it('leaves both indexes in DATA_DIR, after which none is missing', async () => {
    const settings = await settingsFor({ modelLineup: 'corpus' });
    expect(corpusIndexesMissing(settings.dataDir)).toBe(true);
    const report = await buildIndexesInWorker(BUILT_WORKER, settings);
    expect(report.models.map((m) => [m.id, m.fromCache, m.error])).toEqual([
      ['lsa-96', false, undefined],
      ['sif-150', false, undefined],
    ]);
    expect(existsSync(path.join(settings.dataDir, 'vectors', 'lsa-96.vectors'))).toBe(true);
    expect(corpusIndexesMissing(settings.dataDir)).toBe(false);
  }, 120_000);

  it('reports a model that cannot be built instead of ending quietly', async () => {
    const settings = await settingsFor({ modelLineup: 'corpus' });
    await expect(buildIndexesInWorker(BUILT_WORKER, { ...settings, corpusFile: '/nonexistent/book.md' })).rejects.toThrow(
      /Cannot read the book at \/nonexistent\/book.md/,
    );
  }, 60_000);

  it('fails, for the main thread to build instead, when the thread ends without a report', async () => {
    const silent = new URL('data:text/javascript,process.exit(0)');
    await expect(buildIndexesInWorker(silent, await settingsFor({ modelLineup: 'corpus' }))).rejects.toThrow('exited with code 0 before reporting');
    const crashing = new URL('data:text/javascript,process.exit(3)');
    await expect(buildIndexesInWorker(crashing, await settingsFor({ modelLineup: 'corpus' }))).rejects.toThrow('exited with code 3');
  });
});
