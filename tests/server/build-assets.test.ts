import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlierAssetsDir } from '../../server/platform/http/build-assets.ts';
import { buildsToKeep, EARLIER_BUILDS_KEPT, keepEarlierAssets } from '../../scripts/keep-earlier-assets.ts';
import { startTestServer, writeFakeBuild, type TestServer } from './harness.ts';

describe('the earlier builds a new build keeps loadable', () => {
  it('keeps the last builds, newest first, and a rebuild of the same code once', () => {
    expect(buildsToKeep([], [])).toEqual([]);
    expect(buildsToKeep([], ['a.js'])).toEqual([['a.js']]);
    expect(buildsToKeep([['a.js']], ['a.js'])).toEqual([['a.js']]);
    expect(buildsToKeep([['b.js'], ['a.js']], ['c.js', 'x.js'])).toEqual([['c.js', 'x.js'], ['b.js'], ['a.js']]);
    expect(buildsToKeep([['c.js'], ['b.js'], ['a.js']], ['d.js'])).toEqual([['d.js'], ['c.js'], ['b.js']]);
  });

  it('copies the build about to be replaced beside it, and lets go of files no kept build has', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'builds-'));
    const dist = path.join(root, 'dist');
    // Nothing built yet: nothing kept, no folder made.
    expect(await keepEarlierAssets(dist)).toEqual({ builds: 0, files: 0 });
    expect(await readdir(root)).toEqual([]);
    for (let build = 1; build <= EARLIER_BUILDS_KEPT + 2; build++) {
      // As vite leaves it: the app's code renamed by each build, a chunk whose code did not change.
      await rm(dist, { recursive: true, force: true });
      await mkdir(path.join(dist, 'assets'), { recursive: true });
      await writeFile(path.join(dist, 'assets', `app-${build}.js`), `build ${build}`);
      await writeFile(path.join(dist, 'assets', `app-${build}.js.br`), brotliCompressSync(`build ${build}`));
      await writeFile(path.join(dist, 'assets', 'vendor-same.js'), 'vendor');
      await keepEarlierAssets(dist);
    }
    const kept = (await readdir(earlierAssetsDir(dist))).sort();
    // Builds 3, 4 and 5 (the one just replaced), and the chunk they share, once.
    expect(kept).toEqual(['app-3.js', 'app-3.js.br', 'app-4.js', 'app-4.js.br', 'app-5.js', 'app-5.js.br', 'vendor-same.js']);
  });
});

describe('serving the app’s hashed files across builds (a rolling deploy)', () => {
  let server: TestServer;
  let build: string;

  beforeAll(async () => {
    build = await writeFakeBuild();
    // Over HTTP: what fetch makes of each encoding is part of what is tested.
    server = await startTestServer('embedded', { staticDir: build, http: true });
  });
  afterAll(() => server.close());

  const fetchAsset = (name: string, init: RequestInit = {}) => server.api(`/assets/${name}`, init);

  it('serves a file a newer build wrote after this process started', async () => {
    // Another instance restarted onto the new build; this one, not yet, gets its page's code asked for.
    await writeFile(path.join(build, 'assets', 'app-newer.js'), 'the newer build');
    const res = await fetchAsset('app-newer.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('the newer build');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
  });

  it('serves a file the new build no longer has from the earlier builds, in each encoding', async () => {
    // The build replaced this process's files: its own chunk moved to the earlier builds' folder.
    const earlier = earlierAssetsDir(build);
    await mkdir(earlier, { recursive: true });
    for (const name of ['app-abc123.js', 'app-abc123.js.br', 'app-abc123.js.gz']) {
      await rename(path.join(build, 'assets', name), path.join(earlier, name));
    }
    const plain = await fetchAsset('app-abc123.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(await plain.text()).toBe('console.log("the app");'.repeat(20));
    const br = await fetchAsset('app-abc123.js', { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    // fetch undoes the encoding: the file arrived whole.
    expect(await br.text()).toBe('console.log("the app");'.repeat(20));
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('finds nothing outside those folders, and a file neither has is still a JSON 404', async () => {
    await writeFile(path.join(path.dirname(build), 'secret.txt'), 'secret');
    for (const name of ['missing.js', '..%2F..%2Fsecret.txt', '%2E%2E%2F%2E%2E%2Fsecret.txt', '.hidden.js', 'sub%2Fdir.js']) {
      const res = await fetchAsset(name);
      expect(res.status, name).toBe(404);
      expect(await res.json(), name).toEqual({ detail: 'Not found' });
    }
    expect((await server.api('/assets/app-newer.js', { method: 'POST' })).status).toBe(404);
  });
});
