import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { PACK_FORMAT, packValue, type PackableModel } from '../../../common/offline/offline-pack.ts';
import { encodePack } from '../../../common/offline/pack-codec.ts';
import { isRestoredModel } from '../../../common/search/query-models.ts';
import { modelType } from '../../../common/search/types.ts';
import type { RetrievalEngine } from '../search/index.ts';

/** How a pack's bytes travel: compressed by brotli or gzip, or as they are. */
export type PackEncoding = 'br' | 'gzip' | 'identity';
export const PACK_ENCODINGS: PackEncoding[] = ['br', 'gzip', 'identity'];

/** A pack on disk, in each encoding, and its size as stored on a device (its bytes as they are). */
export interface PreparedPack {
  version: string;
  storedBytes: number;
  /** The SHA-256 of the pack as a device keeps it (its bytes uncompressed), hex: the device checks it before use. */
  sha256: string;
  /** The model_type of each model the pack holds (the keyword arm is not among them). */
  models: string[];
  files: Record<PackEncoding, { file: string; bytes: number }>;
}

/** The engine's models as a pack can hold them: none unless every model is a weight-free one, served. */
export function packableModels(engine: RetrievalEngine): PackableModel[] | null {
  const models: PackableModel[] = [];
  for (const entry of engine.entries) {
    // The keyword arm is not packed: a device answers with the vector models (the arena's draw is the server's).
    if ('keyword' in entry) continue;
    if (!('index' in entry) || !isRestoredModel(entry.index.model) || !entry.index.sentences) return null;
    models.push({ model: entry.index.model, vectors: entry.index.vectors, sentences: entry.index.sentences });
  }
  return models.length > 0 ? models : null;
}

/**
 * Names a pack by what its answers depend on: its format, the book, each model's version, and
 * the vectors each model's index holds (a gloss line or an asked question added to the book's
 * folder changes them, and not the text or the models' versions).
 */
export function offlinePackVersion(corpusHash: string, models: PackableModel[]): string {
  const key = JSON.stringify([PACK_FORMAT, corpusHash, models.map(({ model }) => [model.id, model.version])]);
  const hash = createHash('sha256').update(key);
  const bytes = (array: Float32Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  for (const { vectors, sentences } of models) {
    for (const array of [vectors, sentences.first, sentences.vectors, sentences.glossLines?.first, sentences.glossLines?.vectors]) {
      hash.update(array ? bytes(array) : new Uint8Array(0)).update('|');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const EXTENSION: Record<PackEncoding, string> = { br: '.br', gzip: '.gz', identity: '' };
const fileOf = (dir: string, version: string, encoding: PackEncoding) => path.join(dir, `offline-${version}.pack${EXTENSION[encoding]}`);

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The engine's offline pack, from `dir` when an earlier start wrote this version there, else
 * built from the state the engine searches with and written there (each file under a temporary
 * name, then renamed; the other versions' files removed). Null when the engine's models cannot
 * run on a device (the neural lineup, or a model that cannot be served).
 */
export async function prepareOfflinePack(engine: RetrievalEngine, dir: string): Promise<PreparedPack | null> {
  const models = packableModels(engine);
  if (!models) return null;
  const version = offlinePackVersion(engine.corpus.hash, models);
  const files = Object.fromEntries(PACK_ENCODINGS.map((encoding) => [encoding, { file: fileOf(dir, version, encoding), bytes: 0 }])) as PreparedPack['files'];
  const held = models.map(({ model }) => modelType(model));
  try {
    for (const encoding of PACK_ENCODINGS) files[encoding].bytes = (await stat(files[encoding].file)).size;
    return { version, storedBytes: files.identity.bytes, sha256: await fileSha256(files.identity.file), models: held, files };
  } catch {
    // Not all there: built again.
  }
  const bytes = encodePack(packValue(version, { title: engine.corpus.title, passages: engine.corpus.passages }, models));
  const encoded: Record<PackEncoding, Uint8Array> = {
    identity: bytes,
    // Quality 9 of 11: within 1% of the best, in a second or two rather than half a minute.
    br: await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } }),
    gzip: await gzipped(bytes, { level: 9 }),
  };
  await mkdir(dir, { recursive: true });
  for (const encoding of PACK_ENCODINGS) {
    const temp = `${files[encoding].file}.${process.pid}.tmp`;
    await writeFile(temp, encoded[encoding]);
    await rename(temp, files[encoding].file);
    files[encoding].bytes = encoded[encoding].byteLength;
  }
  const current = new Set(PACK_ENCODINGS.map((encoding) => path.basename(files[encoding].file)));
  for (const name of await readdir(dir)) {
    if (name.startsWith('offline-') && /\.pack(\.br|\.gz)?$/.test(name) && !current.has(name)) await rm(path.join(dir, name), { force: true });
  }
  return { version, storedBytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex'), models: held, files };
}

/** A file's SHA-256, hex, read as a stream (the pack found where an earlier start left it: 12 MB). */
async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
