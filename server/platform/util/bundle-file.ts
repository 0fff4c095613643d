import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A small self-describing file: a JSON header (meta and the array layout), then the
 * Float32 arrays back to back, then any byte (int8) arrays. Written to a temporary name and
 * renamed, so a crash never leaves half a cache behind.
 */
export interface Bundle {
  meta: Record<string, unknown>;
  arrays: Record<string, Float32Array>;
  bytes?: Record<string, Int8Array>;
}

/** An array's name, its length, and 'i8' for a byte array (after every Float32 one). */
type LayoutEntry = [string, number] | [string, number, 'i8'];

const MAGIC = 'ALCHV1\n';

export async function writeBundle(file: string, bundle: Bundle): Promise<void> {
  const bytes = Object.entries(bundle.bytes ?? {});
  const layout: LayoutEntry[] = [
    ...Object.entries(bundle.arrays).map(([name, a]): LayoutEntry => [name, a.length]),
    ...bytes.map(([name, a]): LayoutEntry => [name, a.length, 'i8']),
  ];
  const header = Buffer.from(JSON.stringify({ meta: bundle.meta, layout }));
  const prefix = Buffer.alloc(MAGIC.length + 4);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(header.length, MAGIC.length);
  const pad = Buffer.alloc((4 - ((prefix.length + header.length) % 4)) % 4);
  const body = [...Object.values(bundle.arrays), ...bytes.map(([, a]) => a)].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, Buffer.concat([prefix, header, pad, ...body]));
  await rename(temp, file);
}

/** The bundle in `file`, or null when it is missing or unreadable (the caller rebuilds it). */
export async function readBundle(file: string): Promise<Bundle | null> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    return null;
  }
  try {
    if (data.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const headerLength = data.readUInt32LE(MAGIC.length);
    const start = MAGIC.length + 4;
    const header = JSON.parse(data.toString('utf8', start, start + headerLength)) as {
      meta: Record<string, unknown>;
      layout: LayoutEntry[];
    };
    let offset = start + headerLength;
    offset += (4 - (offset % 4)) % 4;
    // The arrays are views of the file's own bytes where they fall on a 4-byte boundary in memory
    // (a file this large is read into a buffer of its own), of a copy otherwise.
    const aligned = (data.byteOffset + offset) % 4 === 0 ? data.subarray(offset) : Uint8Array.from(data.subarray(offset));
    const arrays: Record<string, Float32Array> = {};
    const bytes: Record<string, Int8Array> = {};
    let at = 0;
    for (const [name, length, type] of header.layout) {
      const size = type === 'i8' ? 1 : 4;
      if (at + length * size > aligned.byteLength) return null;
      if (type === 'i8') bytes[name] = new Int8Array(aligned.buffer, aligned.byteOffset + at, length);
      else arrays[name] = new Float32Array(aligned.buffer, aligned.byteOffset + at, length);
      at += length * size;
    }
    return { meta: header.meta, arrays, ...(Object.keys(bytes).length > 0 ? { bytes } : {}) };
  } catch {
    return null;
  }
}
