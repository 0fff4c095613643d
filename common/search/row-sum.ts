/**
 * Weighted sums of a matrix's rows, four values at a time: how a corpus model makes a text's
 * vector from its terms (LSA: each term's topic and lexical rows times its tf-idf weight; SIF:
 * each word's vector times its weight). A question reads a hundred terms or so, its words and their
 * WordNet and thesaurus relatives, and summing their rows in a JavaScript loop was a fifth of a new
 * question's CPU. A WebAssembly function sums them with 128-bit SIMD instead, in 32-bit floats
 * (each product and sum rounded to a float32, in the order the terms are given): the same on a
 * server and on a device, bit for bit.
 *
 * The matrix lives in the function's memory. Its rows are copied in as a term first needs them,
 * so a device draws a random projection's rows only for the terms its questions use (lsa.ts).
 *
 * Its one function, in WebAssembly's text format:
 *
 * (`out` holds the sum so far: zeros at first, a list longer than one call takes goes on from there)
 *
 *   (func (export "sum") (param $matrix i32) (param $width i32) (param $ids i32) (param $weights i32)
 *                        (param $count i32) (param $out i32)
 *     (local $t i32) (local $c i32) (local $row i32) (local $w v128)
 *     (block (loop                                     ;; for t in 0..count
 *       (br_if 1 (i32.ge_u (local.get $t) (local.get $count)))
 *       (local.set $row (i32.add (local.get $matrix)
 *         (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $t) (i32.const 2)))) (local.get $width))))
 *       (local.set $w (f32x4.splat (f32.load (i32.add (local.get $weights) (i32.shl (local.get $t) (i32.const 2))))))
 *       (local.set $c (i32.const 0))
 *       (block (loop                                   ;; out += w × row
 *         (br_if 1 (i32.ge_u (local.get $c) (local.get $width)))
 *         (v128.store (i32.add (local.get $out) (local.get $c))
 *           (f32x4.add (v128.load (i32.add (local.get $out) (local.get $c)))
 *                      (f32x4.mul (v128.load (i32.add (local.get $row) (local.get $c))) (local.get $w))))
 *         (local.set $c (i32.add (local.get $c) (i32.const 16)))
 *         (br 0)))
 *       (local.set $t (i32.add (local.get $t) (i32.const 1)))
 *       (br 0))))
 */
import { elementAt, I32, op, oneFunctionModule, V128 } from './wasm-assembly.ts';

const [MATRIX, WIDTH, IDS, WEIGHTS, COUNT, OUT, T, C, ROW, W] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** c = 0; while c < width: `step`; c += 16 */
const eachColumn = (step: number[]) => [
  ...op.i32(0), ...op.set(C),
  ...op.block, ...op.loop,
  ...op.get(C), ...op.get(WIDTH), ...op.i32GeU, ...op.brIf(1),
  ...step,
  ...op.get(C), ...op.i32(16), ...op.i32Add, ...op.set(C),
  ...op.br(0),
  ...op.end, ...op.end,
];


const body = [
  ...[0x02, 0x03, I32, 0x01, V128], // locals: t, c, row (i32); w (v128)
  ...op.block, ...op.loop,
  ...op.get(T), ...op.get(COUNT), ...op.i32GeU, ...op.brIf(1),
  ...op.get(MATRIX), ...elementAt(IDS, T, 2), ...op.i32Load(0), ...op.get(WIDTH), ...op.i32Mul, ...op.i32Add, ...op.set(ROW),
  ...elementAt(WEIGHTS, T, 2), ...op.f32Load(0), ...op.f32x4Splat, ...op.set(W),
  ...eachColumn([
    ...op.get(OUT), ...op.get(C), ...op.i32Add,
    ...op.get(OUT), ...op.get(C), ...op.i32Add, ...op.v128Load(0),
    ...op.get(ROW), ...op.get(C), ...op.i32Add, ...op.v128Load(0), ...op.get(W), ...op.f32x4Mul,
    ...op.f32x4Add, ...op.v128Store(0),
  ]),
  ...op.get(T), ...op.i32(1), ...op.i32Add, ...op.set(T),
  ...op.br(0),
  ...op.end, ...op.end,
];

let compiled: WebAssembly.Module | undefined;

/** The most terms one call of the function sums; a longer list is summed in turns. */
const BATCH = 1024;

/**
 * A matrix of `rows` rows of `dim` values, each row filled by `fill` when a sum first needs it,
 * and the weighted sums of its rows.
 */
export class RowSum {
  private readonly sumOf: (matrix: number, width: number, ids: number, weights: number, count: number, out: number) => void;
  /** Bytes a row takes: `dim` floats, padded to a multiple of four. */
  private readonly width: number;
  private readonly matrix: Float32Array;
  private readonly filled: Uint8Array;
  private readonly ids: Int32Array;
  private readonly weights: Float32Array;
  private readonly out: Float32Array;

  constructor(
    private readonly rows: number,
    readonly dim: number,
    /** Writes row `row` into `into` (`dim` values). */
    private readonly fill: (row: number, into: Float32Array) => void,
  ) {
    const floats = Math.ceil(dim / 4) * 4;
    this.width = floats * 4;
    const idsAt = rows * this.width;
    const weightsAt = idsAt + BATCH * 4;
    const outAt = weightsAt + BATCH * 4;
    const memory = new WebAssembly.Memory({ initial: Math.ceil((outAt + this.width) / 65536) || 1 });
    compiled ??= oneFunctionModule('sum', [I32, I32, I32, I32, I32, I32], body);
    this.sumOf = new WebAssembly.Instance(compiled, { env: { memory } }).exports.sum as RowSum['sumOf'];
    this.matrix = new Float32Array(memory.buffer, 0, rows * floats);
    this.filled = new Uint8Array(rows);
    this.ids = new Int32Array(memory.buffer, idsAt, BATCH);
    this.weights = new Float32Array(memory.buffer, weightsAt, BATCH);
    this.out = new Float32Array(memory.buffer, outAt, floats);
  }

  /**
   * Σ weight × row over the terms, in their order, each weight first times its row's `scales`
   * where they are given (SIF's word weights): a new array of `dim` values (zeros for none).
   */
  sum(terms: Iterable<[row: number, weight: number]>, scales?: Float32Array): Float32Array {
    const floats = this.width / 4;
    let count = 0;
    const flush = () => {
      this.sumOf(this.matrix.byteOffset, this.width, this.ids.byteOffset, this.weights.byteOffset, count, this.out.byteOffset);
      count = 0;
    };
    this.out.fill(0);
    for (const [row, weight] of terms) {
      if (!(Number.isInteger(row) && row >= 0 && row < this.rows)) throw new RangeError(`row ${row} is not one of ${this.rows}`);
      if (this.filled[row] === 0) {
        this.fill(row, this.matrix.subarray(row * floats, row * floats + this.dim));
        this.filled[row] = 1;
      }
      this.ids[count] = row;
      this.weights[count] = scales ? scales[row]! * weight : weight;
      count += 1;
      if (count === BATCH) flush();
    }
    if (count > 0) flush();
    return this.out.slice(0, this.dim);
  }
}
