/**
 * Rows of a vector index kept as 8-bit codes: each row a scale (its largest magnitude ÷ 127) and
 * one signed byte a value, so a value is within half a step (scale ÷ 2) of the original. The
 * kernel scans the codes (dot-kernel.ts); the offline pack carries them as they are
 * (pack-codec.ts), so a device holds what the server holds, bit for bit.
 *
 * Coding is idempotent: the values a row's codes stand for code again to the same codes and the
 * same scale. Each row's scale is the nearest float32 at or above largest ÷ 127 for which that
 * holds, so rows the server coded, decoded on a device and coded there give the same scores.
 */
export const CODE_LEVELS = 127;

export interface RowCodes {
  /** A scale per row: code × scale is the value. */
  scales: Float32Array;
  codes: Int8Array;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The next float32 above a positive float32. */
function nextUp(value: number): number {
  f32[0] = value;
  u32[0]! += 1;
  return f32[0]!;
}

/** The scale for a row whose largest magnitude is `largest`: one its decoded values give back. */
export function rowScale(largest: number): number {
  if (!(largest > 0)) return 1;
  let scale = Math.fround(largest / CODE_LEVELS);
  // Its largest code (±127) decodes to fround(127 × scale); coded again, that must give `scale`.
  for (let step = 0; step < 64; step++) {
    if (Math.fround(Math.fround(CODE_LEVELS * scale) / CODE_LEVELS) === scale && Math.round(largest / scale) <= CODE_LEVELS) return scale;
    scale = nextUp(scale);
  }
  throw new Error(`no idempotent scale near ${largest} / ${CODE_LEVELS}`);
}

/** Rows of `rowLength` values as codes and scales. */
export function codeRows(values: Float32Array, rowLength: number): RowCodes {
  if (!Number.isInteger(rowLength) || rowLength <= 0 || values.length % rowLength !== 0) throw new Error(`${values.length} values are not rows of ${rowLength}`);
  const rows = values.length / rowLength;
  const scales = new Float32Array(rows);
  const codes = new Int8Array(values.length);
  for (let r = 0; r < rows; r++) {
    const from = r * rowLength;
    let largest = 0;
    for (let c = from; c < from + rowLength; c++) largest = Math.max(largest, Math.abs(values[c]!));
    const scale = rowScale(Math.fround(largest));
    scales[r] = scale;
    for (let c = from; c < from + rowLength; c++) codes[c] = Math.round(values[c]! / scale);
  }
  return { scales, codes };
}

/** The values codes stand for. */
export function decodeRows({ scales, codes }: RowCodes, rowLength: number): Float32Array {
  const out = new Float32Array(codes.length);
  for (let r = 0, i = 0; r < scales.length; r++) {
    const scale = scales[r]!;
    for (const end = i + rowLength; i < end; i++) out[i] = codes[i]! * scale;
  }
  return out;
}
