/**
 * Dot products of one query with many rows, sixteen values at a time: a WebAssembly function using
 * its 128-bit SIMD instructions (every Node this project runs on has them). The rows are kept as
 * 8-bit codes with a scale each (row-codes.ts) and the query as 16-bit codes with one scale, so a
 * row's dot product is summed exactly in 32-bit integers and then scaled: the same on a server and
 * on a device, bit for bit. The codes the scan reads take a quarter of the memory float rows would
 * (the index keeps the values they stand for beside them, for the mark and the pack). A plain
 * JavaScript loop over float rows took most of a cold search; float SIMD, before the codes, was
 * about ten times as fast.
 *
 * Four rows are summed side by side, so that each sixteen of the query's codes are loaded once for
 * the four, and each row's sum is scaled where it is made (in 64-bit floats, then rounded to 32
 * bits: what `sum * rowScale * queryScale` stored in a Float32Array gives). A run of rows is
 * scanned in whole fours: memory holds three rows of zeros after the last, and room for three
 * more scores.
 *
 * The module is written out below instruction by instruction (wasm-assembly.ts). Its one
 * function, in WebAssembly's text format (`$aJ`, `$rowJ` and the lines marked J stand for four of
 * each, J = 0 to 3):
 *
 *   (func (export "scores") (param $rows i32) (param $n i32) (param $width i32) (param $q i32)
 *                           (param $scales i32) (param $qScale f64) (param $out i32)
 *     (local $r i32) (local $i i32) (local $row0 i32) (local $row1 i32) (local $row2 i32) (local $row3 i32) (local $qAt i32)
 *     (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $v v128) (local $lo v128) (local $hi v128)
 *     (block (loop                                     ;; for r in 0, 4, 8 .. < n
 *       (br_if 1 (i32.ge_u (local.get $r) (local.get $n)))
 *       (local.set $aJ (v128.const i32x4 0 0 0 0))                                        ;; J
 *       (local.set $row0 (i32.add (local.get $rows) (i32.mul (local.get $r) (local.get $width))))
 *       (local.set $rowJ (i32.add (local.get $row(J-1)) (local.get $width)))              ;; J = 1..3
 *       (local.set $i (i32.const 0))
 *       (block (loop                                   ;; aJ += rowJ[i..i+16] · q[i..i+16]
 *         (br_if 1 (i32.ge_u (local.get $i) (local.get $width)))
 *         (local.set $qAt (i32.add (local.get $q) (i32.shl (local.get $i) (i32.const 1))))
 *         (local.set $lo (v128.load (local.get $qAt)))
 *         (local.set $hi (v128.load offset=16 (local.get $qAt)))
 *         (local.set $v (v128.load (i32.add (local.get $rowJ) (local.get $i))))           ;; J
 *         (local.set $aJ (i32x4.add (i32x4.add (local.get $aJ)                             ;; J
 *           (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (local.get $lo)))
 *           (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (local.get $hi))))
 *         (local.set $i (i32.add (local.get $i) (i32.const 16)))
 *         (br 0)))
 *       (f32.store offset=4J (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2))) ;; J
 *         (f32.demote_f64 (f64.mul (f64.mul
 *           (f64.convert_i32_s (i32.add (i32.add (i32.add (i32x4.extract_lane 0 (local.get $aJ))
 *             (i32x4.extract_lane 1 (local.get $aJ))) (i32x4.extract_lane 2 (local.get $aJ))) (i32x4.extract_lane 3 (local.get $aJ))))
 *           (f64.promote_f32 (f32.load offset=4J (i32.add (local.get $scales) (i32.shl (local.get $r) (i32.const 2))))))
 *           (local.get $qScale))))
 *       (local.set $r (i32.add (local.get $r) (i32.const 4)))
 *       (br 0))))
 */

import { CODE_LEVELS, codeRows, type RowCodes } from './row-codes.ts';
import { elementAt, F32, F64, I32, op, oneFunctionModule, V128 } from './wasm-assembly.ts';

const [ROWS, N, WIDTH, Q, SCALES, Q_SCALE, OUT] = [0, 1, 2, 3, 4, 5, 6];
const [R, I, ROW, Q_AT, ACC, V, LO, HI] = [7, 8, 9, 13, 14, 18, 19, 20];
/** Rows summed side by side. */
const BLOCK = 4;
const each = (build: (j: number) => number[]) => Array.from({ length: BLOCK }, (_, j) => build(j)).flat();

/** aJ += dot(extend_low(rowJ[i..]), lo) + dot(extend_high(rowJ[i..]), hi) */
const accumulate = (j: number) => [
  ...op.get(ROW + j), ...op.get(I), ...op.i32Add, ...op.v128Load(0), ...op.set(V),
  ...op.get(ACC + j),
  ...op.get(V), ...op.extendLow, ...op.get(LO), ...op.dot, ...op.i32x4Add,
  ...op.get(V), ...op.extendHigh, ...op.get(HI), ...op.dot, ...op.i32x4Add,
  ...op.set(ACC + j),
];

/** out[r + j] = f32(f64(sum of aJ's lanes) × f64(scales[r + j]) × qScale) */
const store = (j: number) => [
  ...elementAt(OUT, R, 2),
  ...op.get(ACC + j), ...op.lane(0), ...op.get(ACC + j), ...op.lane(1), ...op.i32Add,
  ...op.get(ACC + j), ...op.lane(2), ...op.i32Add, ...op.get(ACC + j), ...op.lane(3), ...op.i32Add,
  ...op.f64FromI32,
  ...elementAt(SCALES, R, 2), ...op.f32Load(4 * j), ...op.f64FromF32,
  ...op.f64Mul, ...op.get(Q_SCALE), ...op.f64Mul, ...op.f32FromF64,
  ...op.f32Store(4 * j),
];

const body = [
  ...[0x02, 0x07, I32, 0x07, V128], // locals: r, i, row0..row3, qAt (i32); a0..a3, v, lo, hi (v128)
  ...op.block, ...op.loop,
  ...op.get(R), ...op.get(N), ...op.i32GeU, ...op.brIf(1),
  ...each((j) => [...op.v128Zero, ...op.set(ACC + j)]),
  ...op.get(ROWS), ...op.get(R), ...op.get(WIDTH), ...op.i32Mul, ...op.i32Add, ...op.set(ROW),
  ...each((j) => (j === 0 ? [] : [...op.get(ROW + j - 1), ...op.get(WIDTH), ...op.i32Add, ...op.set(ROW + j)])),
  ...op.i32(0), ...op.set(I),
  ...op.block, ...op.loop,
  ...op.get(I), ...op.get(WIDTH), ...op.i32GeU, ...op.brIf(1),
  ...op.get(Q), ...op.get(I), ...op.i32(1), ...op.i32Shl, ...op.i32Add, ...op.set(Q_AT),
  ...op.get(Q_AT), ...op.v128Load(0), ...op.set(LO),
  ...op.get(Q_AT), ...op.v128Load(16), ...op.set(HI),
  ...each(accumulate),
  ...op.get(I), ...op.i32(16), ...op.i32Add, ...op.set(I),
  ...op.br(0),
  ...op.end, ...op.end,
  ...each(store),
  ...op.get(R), ...op.i32(BLOCK), ...op.i32Add, ...op.set(R),
  ...op.br(0),
  ...op.end, ...op.end,
];

/**
 * A second function, on the same memory: each passage's score from the rows' scores, as
 * passage-index.ts ranks it, its own cosine weighed with its closest sentence's or gloss line's:
 *
 *   (func (export "best") (param $scores i32) (param $units i32) (param $count i32) (param $keep f64)
 *                         (param $weight f64) (param $own i32)
 *     (local $p i32) (local $s i32) (local $end i32) (local $lines i32) (local $closest f32) (local $v f32)
 *     (local.set $lines (i32.add (local.get $units) (i32.shl (i32.add (local.get $count) (i32.const 1)) (i32.const 2))))
 *     (block (loop                                     ;; for p in 0..count
 *       (br_if 1 (i32.ge_u (local.get $p) (local.get $count)))
 *       (local.set $closest (f32.const -inf))
 *       ;; its sentences' rows, units[p] to units[p + 1], then its lines', lines[p] to lines[p + 1]:
 *       (local.set $s (i32.load (i32.add (local.get $units) (i32.shl (local.get $p) (i32.const 2)))))
 *       (local.set $end (i32.load offset=4 (i32.add (local.get $units) (i32.shl (local.get $p) (i32.const 2)))))
 *       (block (loop
 *         (br_if 1 (i32.ge_u (local.get $s) (local.get $end)))
 *         (local.set $v (f32.load (i32.add (local.get $scores) (i32.shl (local.get $s) (i32.const 2)))))
 *         (local.set $closest (select (local.get $v) (local.get $closest) (f32.gt (local.get $v) (local.get $closest))))
 *         (local.set $s (i32.add (local.get $s) (i32.const 1)))
 *         (br 0)))
 *       … the same over $lines …
 *       (local.set $v (f32.load (i32.add (local.get $scores) (i32.shl (local.get $p) (i32.const 2)))))
 *       (f64.store (i32.add (local.get $own) (i32.shl (local.get $p) (i32.const 3)))
 *         (select (f64.add (f64.mul (local.get $keep) (f64.promote_f32 (local.get $v)))
 *                          (f64.mul (local.get $weight) (f64.promote_f32 (local.get $closest))))
 *                 (f64.promote_f32 (local.get $v))
 *                 (f32.gt (local.get $closest) (f32.const -inf))))
 *       (local.set $p (i32.add (local.get $p) (i32.const 1)))
 *       (br 0))))
 */
const [SCORES, UNITS, COUNT, KEEP, WEIGHT, OWN] = [0, 1, 2, 3, 4, 5];
const [P, S, END, LINES, CLOSEST, VALUE] = [6, 7, 8, 9, 10, 11];

/** closest = the largest score of rows bounds[p] to bounds[p + 1] and closest (the first of equals). */
const closestOver = (bounds: number) => [
  ...elementAt(bounds, P, 2), ...op.i32Load(0), ...op.set(S),
  ...elementAt(bounds, P, 2), ...op.i32Load(4), ...op.set(END),
  ...op.block, ...op.loop,
  ...op.get(S), ...op.get(END), ...op.i32GeU, ...op.brIf(1),
  ...elementAt(SCORES, S, 2), ...op.f32Load(0), ...op.set(VALUE),
  ...op.get(VALUE), ...op.get(CLOSEST), ...op.get(VALUE), ...op.get(CLOSEST), ...op.f32Gt, ...op.select, ...op.set(CLOSEST),
  ...op.get(S), ...op.i32(1), ...op.i32Add, ...op.set(S),
  ...op.br(0),
  ...op.end, ...op.end,
];

const bestBody = [
  ...[0x02, 0x04, I32, 0x02, F32], // locals: p, s, end, lines (i32); closest, v (f32)
  ...op.get(UNITS), ...op.get(COUNT), ...op.i32(1), ...op.i32Add, ...op.i32(2), ...op.i32Shl, ...op.i32Add, ...op.set(LINES),
  ...op.block, ...op.loop,
  ...op.get(P), ...op.get(COUNT), ...op.i32GeU, ...op.brIf(1),
  ...op.f32MinusInfinity, ...op.set(CLOSEST),
  ...closestOver(UNITS),
  ...closestOver(LINES),
  ...elementAt(SCORES, P, 2), ...op.f32Load(0), ...op.set(VALUE),
  ...elementAt(OWN, P, 3),
  ...op.get(KEEP), ...op.get(VALUE), ...op.f64FromF32, ...op.f64Mul,
  ...op.get(WEIGHT), ...op.get(CLOSEST), ...op.f64FromF32, ...op.f64Mul, ...op.f64Add,
  ...op.get(VALUE), ...op.f64FromF32,
  ...op.get(CLOSEST), ...op.f32MinusInfinity, ...op.f32Gt,
  ...op.select,
  ...op.f64Store(0),
  ...op.get(P), ...op.i32(1), ...op.i32Add, ...op.set(P),
  ...op.br(0),
  ...op.end, ...op.end,
];

let compiledBest: WebAssembly.Module | undefined;

let compiled: WebAssembly.Module | undefined;

/** The largest 32-bit sum: a row's codes (±127) times the query's, over `width` values, must stay below it. */
const I32_MAX = 2 ** 31 - 1;

/** How wide the kernel keeps a row of `dim` values: a multiple of sixteen. */
const widthOf = (dim: number) => Math.ceil(dim / 16) * 16;

/**
 * A query as the kernel takes it: 16-bit codes and one scale (code × scale is the value), its
 * largest magnitude coded as large as keeps any row's sum within 32 bits.
 */
export function codeQuery(query: Float32Array, dim: number): { codes: Int16Array; scale: number } {
  const levels = Math.min(32767, Math.floor(I32_MAX / (CODE_LEVELS * widthOf(dim))));
  let largest = 0;
  for (let c = 0; c < dim; c++) largest = Math.max(largest, Math.abs(query[c]!));
  const scale = largest > 0 ? largest / levels : 0;
  const codes = new Int16Array(dim);
  if (scale > 0) for (let c = 0; c < dim; c++) codes[c] = Math.round(query[c]! / scale);
  return { codes, scale };
}

/**
 * A row's score as the kernel gives it, worked out in plain JavaScript from the codes: the exact
 * integer sum of the row's codes times the query's, times both scales (for tests, and to read).
 */
export function codedDot(row: { scale: number; codes: ArrayLike<number> }, query: { codes: Int16Array; scale: number }): number {
  let sum = 0;
  for (let c = 0; c < query.codes.length; c++) sum += row.codes[c]! * query.codes[c]!;
  return Math.fround(sum * row.scale * query.scale);
}

/**
 * Rows coded to 8 bits (row-codes.ts), padded to a multiple of sixteen, kept in WebAssembly memory
 * with their scales, room for a query's 16-bit codes and the rows' scores; and, given how the rows
 * group under passages, room for each passage's score.
 */
export class DotKernel {
  readonly width: number;
  /** How many rows it holds. */
  readonly rows: number;
  private readonly scoresOf: (rows: number, n: number, width: number, q: number, scales: number, qScale: number, out: number) => void;
  private readonly bestOf: (scores: number, units: number, count: number, keep: number, weight: number, own: number) => void;
  private readonly scalesAt: number;
  private readonly query: Int16Array;
  private queryScale = 0;
  private readonly out: Float32Array;
  private readonly units: Int32Array;
  private readonly own: Float64Array;

  /**
   * `parts` are stacked: the rows of the first, then of the second, and so on; each row coded as
   * codeRows codes it, or given in its codes. `units`, for `best`: passage p's own row is row p,
   * its sentences' rows `units[p]` to `units[p + 1]` and its gloss lines' `units[count + 1 + p]`
   * to `units[count + 2 + p]`, for `count` passages (units holds 2 × (count + 1) numbers).
   */
  constructor(
    given: Array<Float32Array | RowCodes>,
    readonly dim: number,
    units: Int32Array = new Int32Array(2),
  ) {
    const parts = given.map((part) => (part instanceof Float32Array ? codeRows(part, dim) : part));
    const count = parts.reduce((sum, part) => sum + part.scales.length, 0);
    this.rows = count;
    // A scan of whole blocks may read up to BLOCK − 1 rows (and scales) past the last, and score them.
    const kept = count + BLOCK - 1;
    const passages = units.length / 2 - 1;
    if (!Number.isInteger(passages) || passages < 0 || passages > count) throw new Error(`${units.length} unit bounds do not fit ${count} rows`);
    this.width = widthOf(dim);
    const queryAt = kept * this.width;
    this.scalesAt = queryAt + this.width * 2;
    const outAt = this.scalesAt + kept * 4;
    const unitsAt = outAt + kept * 4;
    const ownAt = Math.ceil((unitsAt + units.length * 4) / 8) * 8;
    const memory = new WebAssembly.Memory({ initial: Math.ceil((ownAt + passages * 8) / 65536) || 1 });
    compiled ??= oneFunctionModule('scores', [I32, I32, I32, I32, I32, F64, I32], body);
    compiledBest ??= oneFunctionModule('best', [I32, I32, I32, F64, F64, I32], bestBody);
    this.scoresOf = new WebAssembly.Instance(compiled, { env: { memory } }).exports.scores as DotKernel['scoresOf'];
    this.bestOf = new WebAssembly.Instance(compiledBest, { env: { memory } }).exports.best as DotKernel['bestOf'];
    const padded = new Int8Array(memory.buffer, 0, kept * this.width);
    const scales = new Float32Array(memory.buffer, this.scalesAt, kept);
    let row = 0;
    for (const part of parts) {
      scales.set(part.scales, row);
      for (let r = 0; r < part.scales.length; r++, row++) padded.set(part.codes.subarray(r * dim, (r + 1) * dim), row * this.width);
    }
    this.query = new Int16Array(memory.buffer, queryAt, this.width);
    this.out = new Float32Array(memory.buffer, outAt, kept);
    this.units = new Int32Array(memory.buffer, unitsAt, units.length);
    this.units.set(units);
    for (const bound of units) if (!(bound >= 0 && bound <= count)) throw new Error(`a unit bound ${bound} is not a row of ${count}`);
    this.own = new Float64Array(memory.buffer, ownAt, passages);
  }

  /** Takes the query for the next `scores` calls, coded to 16 bits with one scale (codeQuery). */
  setQuery(query: Float32Array): void {
    const { codes, scale } = codeQuery(query, this.dim);
    this.query.set(codes);
    this.queryScale = scale;
  }

  /** The dot products of the query with rows `from` to `from + n`, in a view valid until the next call. */
  scores(from: number, n: number): Float32Array {
    if (!(Number.isInteger(from) && Number.isInteger(n) && from >= 0 && n >= 0 && from + n <= this.rows)) throw new RangeError(`rows ${from} to ${from + n} are not among ${this.rows}`);
    this.scoresOf(from * this.width, n, this.width, this.query.byteOffset, this.scalesAt + from * 4, this.queryScale, this.out.byteOffset);
    return this.out.subarray(0, n);
  }

  /**
   * After `scores(0, every row)`: each passage's score, `(1 − weight) × its own + weight × its
   * closest sentence's or line's` (its own alone when it has neither), worked out in 64-bit floats
   * from the rows' 32-bit scores; in a view valid until the next call.
   */
  best(weight: number): Float64Array {
    this.bestOf(this.out.byteOffset, this.units.byteOffset, this.own.length, 1 - weight, weight, this.own.byteOffset);
    return this.own;
  }
}
