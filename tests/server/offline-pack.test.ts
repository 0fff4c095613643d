import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, saysLittle } from '../../common/search/match-strength.ts';
import { openPack, type PackSearch } from '../../common/offline/pack-search.ts';
import { asPackContents, packValue } from '../../common/offline/offline-pack.ts';
import { decodePack, encodePack } from '../../common/offline/pack-codec.ts';
import type { SearchResult } from '../../contract/api-schemas.ts';
import { loadQuestions, loadUnanswered } from '../../server/eval/evaluate.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { offlinePackVersion, packableModels, prepareOfflinePack, type PreparedPack } from '../../server/modules/offline-pack/pack-builder.ts';
import { corpusEngine } from './engine-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** A GET whose body comes as sent (fetch would undo its Content-Encoding). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** As a browser has them after fetch has undone the transfer's compression. */
const asStored = (bytes: Buffer) => new Uint8Array(bytes).buffer;

let engine: RetrievalEngine;
let dir: string;
let pack: PreparedPack;
let device: PackSearch;

beforeAll(async () => {
  engine = await corpusEngine();
  dir = await mkdtemp(path.join(tmpdir(), 'offline-pack-'));
  pack = (await prepareOfflinePack(engine, dir))!;
  // The pack as a browser downloads it (brotli) and keeps it: its bytes, read by the same code.
  device = openPack(asStored(brotliDecompressSync(await readFile(pack.files.br.file))));
});

/** The models a pack holds: the pool's vector models. */
const VECTOR_MODELS = ['lsa-96', 'sif-150'];

/** Each model's results, in order. */
const byModel = (results: SearchResult[]) => {
  const out: Record<string, SearchResult[]> = {};
  for (const r of results) (out[r.model_type] ??= []).push(r);
  return out;
};

describe('search on the device, from the offline pack', () => {
  it('answers every evaluation question as the server does: the same first three passages per model, in order, with the same sentence marked, in the same paragraph of the book, and the same word when the book says little', async () => {
    // And the questions the book does not answer, where the share of words it knows decides the notice.
    const questions = [...(await loadQuestions()), ...(await loadUnanswered())];
    expect(questions.length).toBeGreaterThan(600);
    const differences: string[] = [];
    // The index's rows are the server's, code for code, but the device reads a question through
    // term matrices kept in 16 bits: two sentences of one passage can score within that of each
    // other, and the device may then mark the other one. Since the glosses of 2026-11-28, one question of 782.
    const sentenceTies: string[] = [];
    let largestGap = 0;
    for (const { query } of questions) {
      const server = byModel(await engine.search(query, 3, VECTOR_MODELS));
      const here = byModel(await device.search(query, 3));
      expect(Object.keys(here)).toEqual(Object.keys(server));
      const notice = (byArm: Record<string, SearchResult[]>) => saysLittle(
          Object.values(byArm).map((list) => list[0]?.strength),
          agreementOf(Object.values(byArm).map((list) => list.map((r) => r.id))),
        );
      if (notice(here) !== notice(server)) differences.push(`notice: "${query}": server ${notice(server)}, device ${notice(here)}`);
      for (const [model, results] of Object.entries(server)) {
        const mine = here[model]!;
        if (results[0]?.strength === undefined || mine[0]?.strength === undefined) differences.push(`${model}: "${query}": no strength`);
        else if (Math.abs(results[0].strength - mine[0].strength) > 0.01) differences.push(`${model}: "${query}": strength ${results[0].strength} on the server, ${mine[0].strength} here`);
        const shown = (list: SearchResult[]) =>
          list.map((r) => `${r.id}@${r.highlight?.start}-${r.highlight?.end} ${r.anchor} ${r.mark?.anchor}:${r.mark?.start}-${r.mark?.end}`).join(' ');
        const passages = (list: SearchResult[]) => list.map((r) => `${r.id} ${r.anchor}`).join(' ');
        if (passages(mine) !== passages(results)) differences.push(`${model}: "${query}": server ${shown(results)}, device ${shown(mine)}`);
        else if (shown(mine) !== shown(results)) sentenceTies.push(`${model}: "${query}": server ${shown(results)}, device ${shown(mine)}`);
        results.forEach((r, i) => (largestGap = Math.max(largestGap, Math.abs(r.similarity - (mine[i]?.similarity ?? 0)))));
        // What a vote carries is what the server would have shown.
        expect(mine.map(({ text, model_type, passage_index, chapter }) => ({ text, model_type, passage_index, chapter }))).toEqual(
          results.map(({ text, model_type, passage_index, chapter }) => ({ text, model_type, passage_index, chapter })),
        );
      }
    }
    expect(differences).toEqual([]);
    expect(sentenceTies.length).toBeLessThanOrEqual(1);
    // The similarities shown differ only by the question's reading through 16-bit term matrices.
    expect(largestGap).toBeLessThan(1e-3);
  });

  it('answers a blank question with nothing, and a question of words the book never uses as the server does', async () => {
    expect(await device.search('   ')).toEqual([]);
    expect(await device.search('xqzzy blorpt')).toEqual(await engine.search('xqzzy blorpt', 3, VECTOR_MODELS));
  });

  it('names the models as the server does, and is named by the book and the models’ versions', () => {
    // The keyword arm of the pool is not packed.
    expect(device.modelTypes()).toEqual(engine.modelTypes().filter((type) => !type.startsWith('BM25 ')));
    expect(device.version).toBe(pack.version);
    const models = packableModels(engine)!;
    expect(offlinePackVersion(engine.corpus.hash, models)).toBe(pack.version);
    expect(offlinePackVersion(`${engine.corpus.hash}0`, models)).not.toBe(pack.version);
    const changed = models.map((m, i) => (i === 0 ? { ...m, model: { ...m.model, version: `${m.model.version}+` } } : m));
    expect(offlinePackVersion(engine.corpus.hash, changed)).not.toBe(pack.version);
    // A line added to a passage's gloss (glosses.json, asked.json) changes no text and no model's
    // version, only the vectors the index holds: a device must download the new pack.
    const lines = models[0]!.sentences.glossLines!;
    const oneLineMore = { first: lines.first.map((at, p) => (p === lines.first.length - 1 ? at + 1 : at)), vectors: Float32Array.from([...lines.vectors, ...lines.vectors.subarray(0, models[0]!.model.dim)]) };
    const glossed = models.map((m, i) => (i === 0 ? { ...m, sentences: { ...m.sentences, glossLines: oneLineMore } } : m));
    expect(offlinePackVersion(engine.corpus.hash, glossed)).not.toBe(pack.version);
  });

  it('keeps whatever else a model ranks passages by beside their sentences, its vectors quantised like theirs', () => {
    const [model] = packableModels(engine)!;
    const lines = { first: Float32Array.from([0, 1, 1]), vectors: model!.sentences.vectors.slice(0, model!.model.dim) };
    const sentences = { ...model!.sentences, glossLines: lines };
    const packed = asPackContents(decodePack(encodePack(packValue('v', { title: 't', passages: [] }, [{ ...model!, sentences }]))));
    const kept = (packed.models[0]!.sentences as typeof sentences).glossLines;
    expect(kept.first).toEqual(lines.first);
    kept.vectors.forEach((v, i) => expect(Math.abs(v - lines.vectors[i]!)).toBeLessThan(1e-4));
  });

  // 9.3 MB before the glosses in today's words (2026-11-28), which may cost at most a fifth more.
  it('is at most a fifth over 9.3 MB to download, and takes its stored size on the device', () => {
    expect(pack.files.br.bytes).toBeLessThanOrEqual(11_160_000);
    expect(pack.files.gzip.bytes).toBeLessThanOrEqual(11_160_000);
    expect(pack.storedBytes).toBe(pack.files.identity.bytes);
  });

  it('is built once: a restart finds it on disk, and an earlier version’s files are removed', async () => {
    const before = (await stat(pack.files.identity.file)).mtimeMs;
    await writeFile(path.join(dir, 'offline-0123456789abcdef.pack.br'), 'an older pack');
    const again = await prepareOfflinePack(engine, dir);
    expect(again).toEqual(pack);
    expect((await stat(pack.files.identity.file)).mtimeMs).toBe(before);
    // A missing file makes it build again, and then the old version goes.
    await rm(pack.files.gzip.file);
    await prepareOfflinePack(engine, dir);
    expect((await readdir(dir)).sort()).toEqual(Object.values(pack.files).map((f) => path.basename(f.file)).sort());
  });
});

describe('GET /api/offline-pack and the pack’s file', () => {
  let server: TestServer;
  let bare: TestServer;
  beforeAll(async () => {
    server = await startTestServer('embedded', { extra: { engine, offlinePackDir: dir } });
    bare = await startTestServer('embedded', { extra: { engine } });
  });
  afterAll(async () => {
    await server?.close();
    await bare?.close();
  });

  it('states the version, where the file is, and its size before the download', async () => {
    const reply = await rawGet(`${server.url}/api/offline-pack`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(reply.body.toString())).toEqual({
      version: pack.version,
      url: `/offline-pack/${pack.version}`,
      size: pack.files.br.bytes,
      stored_size: pack.storedBytes,
      sha256: createHash('sha256').update(await readFile(pack.files.identity.file)).digest('hex'),
      // Only what the pack holds: the server's pool also has BM25, which stays on the server.
      models: engine.modelTypes().filter((type) => !type.startsWith('BM25')),
    });
    expect(pack.models).toEqual(engine.modelTypes().filter((type) => /^(LSA|SIF) /.test(type)));
    expect(pack.models).toHaveLength(2);
    const gzipOnly = JSON.parse((await rawGet(`${server.url}/api/offline-pack`, { 'accept-encoding': 'gzip' })).body.toString()) as { size: number };
    expect(gzipOnly.size).toBe(pack.files.gzip.bytes);
    const plain = JSON.parse((await rawGet(`${server.url}/api/offline-pack`)).body.toString()) as { size: number };
    expect(plain.size).toBe(pack.storedBytes);
  });

  it('sends the file compressed as the browser accepts, for good (a version never changes)', async () => {
    const stored = await readFile(pack.files.identity.file);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip;q=0', undefined, (b: Buffer) => b],
    ] as const) {
      const reply = await rawGet(`${server.url}/api/offline-pack/${pack.version}`, { 'accept-encoding': accept });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBe(encoding);
      expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(reply.headers.vary).toBe('accept-encoding');
      expect(Number(reply.headers['content-length'])).toBe(reply.body.byteLength);
      expect(Buffer.compare(decode(reply.body), stored)).toBe(0);
    }
    // What the browser's fetch gives: the pack, and it answers.
    const fetched = await fetch(`${server.url}/api/offline-pack/${pack.version}`);
    expect((await openPack(await fetched.arrayBuffer()).search('the heart is like a mirror')).length).toBe(6);
  });

  it('answers 304 and no body to a browser that has this very file (If-None-Match), and 200 to one that has another', async () => {
    const url = `${server.url}/api/offline-pack/${pack.version}`;
    const first = await rawGet(url, { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toBe(`"${pack.version}-br"`);
    expect(first.headers['accept-ranges']).toBe('bytes');
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.body.byteLength).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    // Another encoding's tag is another file.
    const gzip = await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.body.byteLength).toBe(pack.files.gzip.bytes);
  });

  it('sends one range of the file (206) to resume a download, the whole when If-Range names another file, and 416 past its end', async () => {
    const url = `${server.url}/api/offline-pack/${pack.version}`;
    const whole = await readFile(pack.files.br.file);
    const size = whole.byteLength;
    const ranged = async (range: string, extra: Record<string, string> = {}) => rawGet(url, { 'accept-encoding': 'br', range, ...extra });
    const middle = await ranged('bytes=1000-1999');
    expect(middle.status).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 1000-1999/${size}`);
    expect(middle.headers['content-length']).toBe('1000');
    expect(middle.headers['content-encoding']).toBe('br');
    expect(Buffer.compare(middle.body, whole.subarray(1000, 2000))).toBe(0);
    // The rest of a download cut off after 4 MB, resumed: joined, the file byte for byte.
    const rest = await ranged('bytes=4000000-', { 'if-range': `"${pack.version}-br"` });
    expect(rest.status).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes 4000000-${size - 1}/${size}`);
    expect(Buffer.compare(Buffer.concat([whole.subarray(0, 4_000_000), rest.body]), whole)).toBe(0);
    const tail = await ranged('bytes=-10');
    expect(tail.status).toBe(206);
    expect(Buffer.compare(tail.body, whole.subarray(size - 10))).toBe(0);
    expect((await ranged(`bytes=${size - 5}-${size + 100}`)).body.byteLength).toBe(5);
    // If-Range of another file (an older version, another encoding): the whole file, 200.
    const stale = await ranged('bytes=4000000-', { 'if-range': `"${pack.version}-gzip"` });
    expect(stale.status).toBe(200);
    expect(stale.body.byteLength).toBe(size);
    // Several ranges, or one it cannot read: the whole file.
    for (const range of ['bytes=0-9,20-29', 'bytes=abc', 'lines=1-2', 'bytes=9-1']) expect((await ranged(range)).status).toBe(200);
    // Past the end: 416, saying the length, with a {"detail"}, never cached.
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const past = await ranged(range);
      expect(past.status).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${size}`);
      expect(past.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(past.body.toString())).toEqual({ detail: expect.stringContaining('past its end') });
    }
  });

  it('answers another version, or a malformed one, with a {"detail"} that is never cached', async () => {
    const other = await server.api('/api/offline-pack/0123456789abcdef');
    expect(other.status).toBe(404);
    expect(other.headers.get('cache-control')).toBe('no-store');
    expect(((await other.json()) as { detail: string }).detail).toMatch(/^No offline book of version 0123456789abcdef/);
    const malformed = await server.api('/api/offline-pack/..%2Fsecrets');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toHaveProperty('detail');
  });

  it('says there is no offline book where the server keeps none (no folder for it, or no weight-free models)', async () => {
    for (const url of [`${bare.url}/api/offline-pack`, `${bare.url}/api/offline-pack/${pack.version}`]) {
      const reply = await fetch(url);
      expect(reply.status).toBe(404);
      expect(((await reply.json()) as { detail: string }).detail).toContain('no offline book');
    }
  });
});
