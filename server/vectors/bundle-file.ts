import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A small self-describing file: a JSON header (meta and the array layout), then the
 * Float32 arrays back to back. Written to a temporary name and renamed, so a crash never
 * leaves half a cache behind.
 */
export interface Bundle {
  meta: Record<string, unknown>;
  arrays: Record<string, Float32Array>;
}

const MAGIC = 'ALCHV1\n';

export async function writeBundle(file: string, bundle: Bundle): Promise<void> {
  const layout: Array<[string, number]> = Object.entries(bundle.arrays).map(([name, a]) => [name, a.length]);
  const header = Buffer.from(JSON.stringify({ meta: bundle.meta, layout }));
  const prefix = Buffer.alloc(MAGIC.length + 4);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(header.length, MAGIC.length);
  const pad = Buffer.alloc((4 - ((prefix.length + header.length) % 4)) % 4);
  const body = Object.values(bundle.arrays).map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
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
      layout: Array<[string, number]>;
    };
    let offset = start + headerLength;
    offset += (4 - (offset % 4)) % 4;
    const aligned = new Uint8Array(data.byteLength - offset);
    aligned.set(data.subarray(offset));
    const arrays: Record<string, Float32Array> = {};
    let at = 0;
    for (const [name, length] of header.layout) {
      if ((at + length) * 4 > aligned.byteLength) return null;
      arrays[name] = new Float32Array(aligned.buffer, at * 4, length);
      at += length;
    }
    return { meta: header.meta, arrays };
  } catch {
    return null;
  }
}
