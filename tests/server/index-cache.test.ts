import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrBuildIndex, cacheFile } from '../../server/modules/search/fit/build-index.ts';
import { silentProgress } from '../../server/platform/util/progress.ts';
import { lsaRecipe } from '../../server/modules/search/fit/lsa-fit.ts';
import { sifRecipe } from '../../server/modules/search/fit/sif-fit.ts';
import { startRetrieval } from '../../server/modules/search/start-retrieval.ts';
import { quietLog, settingsFor } from './engine-helpers.ts';

const passages = ['The heart is like a mirror that must be polished.', 'Patience is half of faith.', 'The world is a market-place passed by pilgrims.'].map((text) => ({ text }));

describe('the vector cache', () => {
  it('is reused on restart: same vectors, no refit', async () => {
    const { dataDir } = await settingsFor();
    const options = { cacheDir: dataDir, corpusHash: 'h1', progress: silentProgress };
    const first = await loadOrBuildIndex({ kind: 'corpus', recipe: lsaRecipe({ dims: 2 }) }, passages, options);
    const second = await loadOrBuildIndex({ kind: 'corpus', recipe: lsaRecipe({ dims: 2 }) }, passages, options);
    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(true);
    expect(Array.from(second.index.vectors)).toEqual(Array.from(first.index.vectors));
    const q = 'a polished mirror';
    expect(Array.from(await second.index.model.embedQuery(q))).toEqual(Array.from(await first.index.model.embedQuery(q)));
  });

  it('rebuilds when the corpus or the model version changes, and only that model', async () => {
    const { dataDir } = await settingsFor();
    const options = { cacheDir: dataDir, corpusHash: 'h1', progress: silentProgress };
    await loadOrBuildIndex({ kind: 'corpus', recipe: lsaRecipe({ dims: 2 }) }, passages, options);
    await loadOrBuildIndex({ kind: 'corpus', recipe: sifRecipe({ dims: 2, window: 2, a: 0.01 }) }, passages, options);
    const changedCorpus = await loadOrBuildIndex({ kind: 'corpus', recipe: lsaRecipe({ dims: 2 }) }, [...passages, { text: 'New text.' }], {
      ...options,
      corpusHash: 'h2',
    });
    expect(changedCorpus.fromCache).toBe(false);
    expect(changedCorpus.index.count).toBe(4);
    const otherVersion = await loadOrBuildIndex({ kind: 'corpus', recipe: sifRecipe({ dims: 2, window: 3, a: 0.01 }) }, passages, options);
    expect(otherVersion.fromCache).toBe(false);
    expect((await readdir(dataDir)).sort()).toEqual(['lsa-2.vectors', 'sif-2.vectors']);
  });

  it("rebuilds a model that weighs glosses when a gloss changes, and only that model", async () => {
    const { dataDir } = await settingsFor();
    const options = { cacheDir: dataDir, corpusHash: 'h1', progress: silentProgress };
    const glossed = (gloss: string) => passages.map((p, i) => (i === 1 ? { ...p, gloss } : p));
    const withGloss = { kind: 'corpus' as const, recipe: sifRecipe({ dims: 2, window: 2, a: 0.01, gloss: 1 }) };
    const without = { kind: 'corpus' as const, recipe: lsaRecipe({ dims: 2 }) };
    await loadOrBuildIndex(withGloss, glossed('Waiting calmly for what you want.'), options);
    await loadOrBuildIndex(without, glossed('Waiting calmly for what you want.'), options);
    expect((await loadOrBuildIndex(withGloss, glossed('Waiting calmly for what you want.'), options)).fromCache).toBe(true);
    const changed = glossed('How to wait for what you want.');
    expect((await loadOrBuildIndex(withGloss, changed, options)).fromCache).toBe(false);
    expect((await loadOrBuildIndex(without, changed, options)).fromCache).toBe(true);
  });

  it('rebuilds a damaged cache file instead of failing', async () => {
    const { dataDir } = await settingsFor();
    const options = { cacheDir: dataDir, corpusHash: 'h1', progress: silentProgress };
    await loadOrBuildIndex({ kind: 'corpus', recipe: lsaRecipe({ dims: 2 }) }, passages, options);
    await writeFile(cacheFile(dataDir, 'lsa-2'), 'garbage');
    const again = await loadOrBuildIndex({ kind: 'corpus', recipe: lsaRecipe({ dims: 2 }) }, passages, options);
    expect(again.fromCache).toBe(false);
    expect(again.index.count).toBe(3);
  });

  it('lets a restarted engine on the real book answer from the cache alone', async () => {
    const settings = await settingsFor({ modelLineup: 'corpus' });
    const built: string[] = [];
    const log = { ...quietLog, info: (obj: object) => built.push(JSON.stringify(obj)) };
    const first = await startRetrieval(settings, log, silentProgress);
    const second = await startRetrieval(settings, log, silentProgress);
    expect(built.filter((l) => l.includes('"fromCache":true'))).toHaveLength(2);
    expect(await second.search('patience', 3, ['lsa-96', 'sif-150'])).toEqual(await first.search('patience', 3, ['lsa-96', 'sif-150']));
    expect((await readdir(path.join(settings.dataDir, 'vectors'))).sort()).toEqual(['lsa-96.vectors', 'sif-150.vectors', 'word-vectors-50000.vectors']);
  });
});
