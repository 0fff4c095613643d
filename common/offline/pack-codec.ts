/**
 * The offline pack's bytes: a small self-describing container for a tree of JSON values and typed
 * arrays, read the same way in Node (the server, the parity test) and in a browser's worker. After
 * an 8-byte magic and the header's length comes a JSON header (the tree, each array in it replaced
 * by {"$array": n}, and the arrays' layout), then the arrays, each at a multiple of 8 bytes:
 *
 * - `f32`: a Float32Array as it is;
 * - `i8`: an Int8Array as it is;
 * - `q16`: a Float32Array of rows quantised to 16 bits, each row with its own scale (the largest
 *   magnitude in the row is 32,767): the rows' scales, then the codes' high bytes, then their low
 *   bytes (a byte plane of high bytes compresses well, being mostly small). Decoded values are
 *   within half a step (scale / 2) of the originals.
 * - `q8`: a Float32Array of rows in a vector index's 8-bit codes (common/search/row-codes.ts): the
 *   rows' scales, then the codes. Rows an index keeps decode to exactly themselves.
 *
 * Numbers are little-endian, as every machine this runs on is.
 */

import { codeRows, decodeRows } from '../search/row-codes.ts';

const MAGIC = 'ALCHPK1\n';
const ALIGN = 8;
const LEVELS = 32767;

/** A Float32Array of `rowLength`-long rows, to be stored quantised to 16 bits a value. */
export class QuantisedRows {
  constructor(
    readonly values: Float32Array,
    readonly rowLength: number,
  ) {
    if (!Number.isInteger(rowLength) || rowLength <= 0 || values.length % rowLength !== 0) {
      throw new Error(`${values.length} values are not rows of ${rowLength}`);
    }
  }
}

/** A Float32Array of `rowLength`-long rows, to be stored in a vector index's 8-bit codes instead. */
export class CodedRows extends QuantisedRows {}

export type PackValue =
  | null
  | boolean
  | number
  | string
  | Float32Array
  | Int8Array
  | QuantisedRows
  | CodedRows
  | PackValue[]
  | { [key: string]: PackValue | undefined };

type Layout = { type: 'f32' | 'i8'; length: number; offset: number } | { type: 'q16' | 'q8'; length: number; offset: number; rowLength: number };

/** The bytes are not an offline pack (or not a whole one). */
export class PackError extends Error {}

/** Each row's scale and 16-bit codes: code × scale is within scale / 2 of the value. */
export function quantiseRows(values: Float32Array, rowLength: number): { scales: Float32Array; codes: Int16Array } {
  const rows = values.length / rowLength;
  const scales = new Float32Array(rows);
  const codes = new Int16Array(values.length);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let c = r * rowLength; c < (r + 1) * rowLength; c++) max = Math.max(max, Math.abs(values[c]!));
    const scale = Math.fround(max / LEVELS) || 1;
    scales[r] = scale;
    for (let c = r * rowLength; c < (r + 1) * rowLength; c++) codes[c] = Math.round(values[c]! / scale);
  }
  return { scales, codes };
}

export function dequantiseRows(scales: Float32Array, codes: Int16Array, rowLength: number): Float32Array {
  const out = new Float32Array(codes.length);
  for (let r = 0, i = 0; r < scales.length; r++) {
    const scale = scales[r]!;
    for (const end = i + rowLength; i < end; i++) out[i] = codes[i]! * scale;
  }
  return out;
}

const padded = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

/** The value's bytes. */
export function encodePack(value: PackValue): Uint8Array {
  const layout: Layout[] = [];
  const parts: Uint8Array[] = [];
  let offset = 0;
  const add = (entry: Layout, bytes: Uint8Array[]) => {
    layout.push(entry);
    for (const part of bytes) parts.push(part);
    const size = bytes.reduce((sum, part) => sum + part.byteLength, 0);
    parts.push(new Uint8Array(padded(size) - size));
    offset += padded(size);
    return { $array: layout.length - 1 };
  };
  const asBytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const walk = (v: PackValue | undefined): unknown => {
    if (v instanceof Float32Array) return add({ type: 'f32', length: v.length, offset }, [asBytes(v)]);
    if (v instanceof Int8Array) return add({ type: 'i8', length: v.length, offset }, [asBytes(v)]);
    if (v instanceof CodedRows) {
      const { scales, codes } = codeRows(v.values, v.rowLength);
      return add({ type: 'q8', length: v.values.length, offset, rowLength: v.rowLength }, [asBytes(scales), asBytes(codes)]);
    }
    if (v instanceof QuantisedRows) {
      const { scales, codes } = quantiseRows(v.values, v.rowLength);
      const bytes = asBytes(codes);
      const high = new Uint8Array(codes.length);
      const low = new Uint8Array(codes.length);
      for (let i = 0; i < codes.length; i++) {
        low[i] = bytes[2 * i]!;
        high[i] = bytes[2 * i + 1]!;
      }
      return add({ type: 'q16', length: v.values.length, offset, rowLength: v.rowLength }, [asBytes(scales), high, low]);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      if ('$array' in v) throw new Error('a pack value may not have a key named $array');
      return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([key, x]) => [key, walk(x)]));
    }
    if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`a pack value may not be ${v}`);
    return v ?? null;
  };
  const tree = walk(value);
  const header = new TextEncoder().encode(JSON.stringify({ tree, layout }));
  const start = padded(MAGIC.length + 4 + header.byteLength);
  const out = new Uint8Array(start + offset);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(MAGIC.length, header.byteLength, true);
  out.set(header, MAGIC.length + 4);
  let at = start;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** The bytes an array of this layout takes; undefined for a layout this code does not know. */
function sizeOf(type: unknown, length: number, rowLength: number): number | undefined {
  switch (type) {
    case 'f32':
      return length * 4;
    case 'i8':
      return length;
    case 'q16':
      return length * 2 + (length / rowLength) * 4;
    case 'q8':
      return length + (length / rowLength) * 4;
    default:
      return undefined;
  }
}

/**
 * The tree the bytes hold, its arrays back in place: `f32` and `i8` ones are views of the bytes
 * (of a copy, when the bytes do not start at a multiple of 8 in their buffer), `q16` and `q8` ones
 * new Float32Arrays. Throws a PackError for bytes that are not a whole pack.
 */
export function decodePack(input: ArrayBuffer | Uint8Array): unknown {
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteOffset % ALIGN !== 0) bytes = bytes.slice();
  if (new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) throw new PackError('not an offline pack');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(MAGIC.length, true);
  const start = padded(MAGIC.length + 4 + headerLength);
  if (start > bytes.byteLength) throw new PackError('the offline pack is cut short');
  let header: { tree: unknown; layout: Layout[] };
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength))) as typeof header;
  } catch (error) {
    throw new PackError('the offline pack has an unreadable header', { cause: error });
  }
  const base = bytes.byteOffset + start;
  const available = bytes.byteLength - start;
  const arrays = header.layout.map((entry) => {
    const { length, offset } = entry;
    const rowLength = entry.type === 'q16' || entry.type === 'q8' ? entry.rowLength : 1;
    if (!Number.isInteger(rowLength) || rowLength <= 0 || length % rowLength !== 0) throw new PackError('the offline pack holds rows of no length');
    const size = sizeOf(entry.type, length, rowLength);
    if (size === undefined) throw new PackError(`the offline pack holds an array of a kind it cannot read (${String(entry.type)})`);
    if (!Number.isInteger(length) || length < 0 || !Number.isInteger(offset) || offset < 0 || offset % ALIGN !== 0 || offset + size > available) {
      throw new PackError('the offline pack is cut short');
    }
    if (entry.type === 'f32') return new Float32Array(bytes.buffer, base + offset, length);
    if (entry.type === 'i8') return new Int8Array(bytes.buffer, base + offset, length);
    // Both kinds of rows start with a scale per row.
    const rows = length / rowLength;
    const scales = new Float32Array(bytes.buffer, base + offset, rows);
    if (entry.type === 'q8') return decodeRows({ scales, codes: new Int8Array(bytes.buffer, base + offset + rows * 4, length) }, rowLength);
    const high = new Uint8Array(bytes.buffer, base + offset + rows * 4, length);
    const low = new Uint8Array(bytes.buffer, base + offset + rows * 4 + length, length);
    const codes = new Int16Array(length);
    for (let i = 0; i < length; i++) codes[i] = (high[i]! << 8) | low[i]!;
    return dequantiseRows(scales, codes, rowLength);
  });
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      if ('$array' in v) {
        const array = arrays[(v as { $array: number }).$array];
        if (!array) throw new PackError('the offline pack names an array it does not hold');
        return array;
      }
      return Object.fromEntries(Object.entries(v).map(([key, x]) => [key, walk(x)]));
    }
    return v;
  };
  return walk(header.tree);
}
