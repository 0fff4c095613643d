/**
 * Enough of WebAssembly's binary format to write a small module of one exported function by hand,
 * instruction by instruction, so that what runs can be read beside its text format (dot-kernel.ts,
 * row-sum.ts) rather than shipped as an opaque binary. Every Node and browser this project runs on
 * has the 128-bit SIMD instructions used here.
 */

/** Value types. */
export const I32 = 0x7f;
export const F32 = 0x7d;
export const F64 = 0x7c;
export const V128 = 0x7b;

/**
 * Instructions, as bytes; those with an immediate take it. A memory access's offset must be below
 * 128, and an i32 constant below 64 (each is written as one byte: a constant's is signed).
 */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  i32: (value: number) => {
    if (!Number.isInteger(value) || value < 0 || value >= 64) throw new RangeError(`i32 constant ${value} does not fit one byte`);
    return [0x41, value];
  },
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  i32GeU: [0x4f],
  i32Load: (offset: number) => [0x28, 0x02, offset],
  select: [0x1b],
  f32MinusInfinity: [0x43, 0x00, 0x00, 0x80, 0xff],
  f32Gt: [0x5e],
  f64Add: [0xa0],
  f64Store: (offset: number) => [0x39, 0x03, offset],
  f32Load: (offset: number) => [0x2a, 0x02, offset],
  f32Store: (offset: number) => [0x38, 0x02, offset],
  f64Mul: [0xa2],
  f64FromI32: [0xb7],
  f64FromF32: [0xbb],
  f32FromF64: [0xb6],
  v128Load: (offset: number) => [0xfd, 0x00, 0x00, offset],
  v128Store: (offset: number) => [0xfd, 0x0b, 0x00, offset],
  v128Zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  extendLow: [0xfd, 0x87, 0x01],
  extendHigh: [0xfd, 0x88, 0x01],
  dot: [0xfd, 0xba, 0x01],
  i32x4Add: [0xfd, 0xae, 0x01],
  lane: (lane: number) => [0xfd, 0x1b, lane],
  f32x4Splat: [0xfd, 0x13],
  f32x4Add: [0xfd, 0xe4, 0x01],
  f32x4Mul: [0xfd, 0xe6, 0x01],
};

/** The address of element `index` (a local) of the array at `base` (a local), each element 2^`shift` bytes. */
export const elementAt = (base: number, index: number, shift: number): number[] => [
  ...op.get(base), ...op.get(index), ...op.i32(shift), ...op.i32Shl, ...op.i32Add,
];

/** An unsigned LEB128 number, as WebAssembly writes sizes. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

const section = (id: number, contents: number[]) => [id, ...leb(contents.length), ...contents];
const name = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];

/**
 * A module of one function taking `params` and returning nothing, exported as `exported`, that
 * works on a memory it imports as env.memory. `body` starts with the function's locals.
 */
export function oneFunctionModule(exported: string, params: number[], body: number[]): WebAssembly.Module {
  return new WebAssembly.Module(
    Uint8Array.from([
      ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      ...section(1, [0x01, 0x60, params.length, ...params, 0x00]), // its type
      ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]), // the memory, imported
      ...section(3, [0x01, 0x00]), // one function, of that type
      ...section(7, [0x01, ...name(exported), 0x00, 0x00]), // exported
      ...section(10, [0x01, ...leb(body.length + 1), ...body, ...op.end]),
    ]),
  );
}
