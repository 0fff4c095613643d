// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { CodedRows, decodePack, dequantiseRows, encodePack, PackError, QuantisedRows, quantiseRows } from '../../common/offline/pack-codec.ts';
import { codeRows, decodeRows } from '../../common/search/row-codes.ts';
import { projectionRows, randomProjection } from '../../common/search/random-projection.ts';
import { seededRandom } from '../../common/seeded-random.ts';

/** Values as a vector index keeps them: coded, then decoded (what a device decodes from the pack). */
const asKept = (values: Float32Array, rowLength: number) => decodeRows(codeRows(values, rowLength), rowLength);

const randomFloats = (n: number, seed: number, spread = 1) => {
  const random = seededRandom(seed);
  return Float32Array.from({ length: n }, () => (random() - 0.5) * spread);
};

describe('the offline pack codec', () => {
  it('gives back the tree it was given: JSON values, float and byte arrays, nested', () => {
    const floats = randomFloats(37, 1);
    const bytes = Int8Array.from([-128, -1, 0, 1, 127]);
    const tree = { format: 1, name: 'pack ✓', flag: true, none: null, list: [1, 'two', { floats }], bytes, nested: { deeper: { empty: new Float32Array(0) } } };
    const decoded = decodePack(encodePack(tree)) as typeof tree;
    expect(decoded).toEqual(tree);
    expect(decoded.list[2]).toEqual({ floats });
    expect(decoded.bytes).toBeInstanceOf(Int8Array);
  });

  it('keeps quantised rows within half a step of each value, a step being the row’s largest magnitude ÷ 32,767', () => {
    const rowLength = 50;
    // Rows of very different scales, a zero row and a row of one large value among small ones.
    const values = new Float32Array([...randomFloats(rowLength, 2, 1e-4), ...new Float32Array(rowLength), ...randomFloats(rowLength, 3, 20)]);
    values[2 * rowLength + 7] = 1000;
    const decoded = (decodePack(encodePack({ rows: new QuantisedRows(values, rowLength) })) as { rows: Float32Array }).rows;
    expect(decoded).toHaveLength(values.length);
    for (let r = 0; r < 3; r++) {
      const row = values.subarray(r * rowLength, (r + 1) * rowLength);
      const step = Math.max(...row.map(Math.abs)) / 32767;
      row.forEach((v, c) => expect(Math.abs(decoded[r * rowLength + c]! - v)).toBeLessThanOrEqual(step / 2 + Math.abs(v) * 1e-7));
    }
    expect([...decoded.subarray(rowLength, 2 * rowLength)]).toEqual(new Array(rowLength).fill(0));
    expect(decoded[2 * rowLength + 7]).toBeCloseTo(1000, 3);
  });

  it("carries a vector index's rows in their 8-bit codes, a quarter of their floats, and gives back exactly what the index keeps", () => {
    const rowLength = 96;
    const values = new Float32Array([...randomFloats(rowLength * 20, 8), ...new Float32Array(rowLength)]);
    const kept = asKept(values, rowLength);
    const encoded = encodePack({ rows: new CodedRows(kept, rowLength) });
    expect(encoded.byteLength).toBeLessThan(values.byteLength / 4 + 1000);
    const decoded = (decodePack(encoded) as { rows: Float32Array }).rows;
    expect(Array.from(decoded)).toEqual(Array.from(kept));
    // Rows not yet kept by an index are coded as it would code them.
    expect(Array.from((decodePack(encodePack({ rows: new CodedRows(values, rowLength) })) as { rows: Float32Array }).rows)).toEqual(Array.from(kept));
    const cut = encodePack({ rows: new CodedRows(kept, rowLength) }).subarray(0, encoded.byteLength - 8);
    expect(() => decodePack(cut)).toThrow(PackError);
  });

  it('quantises and dequantises as the pack does', () => {
    const values = Float32Array.from([0.5, -0.25, 0.125, 0, 3, -3]);
    const { scales, codes } = quantiseRows(values, 3);
    expect([...codes]).toEqual([32767, -16384, 8192, 0, 32767, -32767]);
    const back = dequantiseRows(scales, codes, 3);
    back.forEach((v, i) => expect(v).toBeCloseTo(values[i]!, 4));
  });

  it('reads a pack from bytes that do not start on an 8-byte boundary of their buffer', () => {
    const encoded = encodePack({ floats: randomFloats(9, 4) });
    const shifted = new Uint8Array(encoded.byteLength + 3);
    shifted.set(encoded, 3);
    expect(decodePack(shifted.subarray(3))).toEqual(decodePack(encoded));
  });

  it('refuses bytes that are not a whole pack, saying so', () => {
    const encoded = encodePack({ floats: randomFloats(1000, 5), rows: new QuantisedRows(randomFloats(100, 6), 10) });
    expect(() => decodePack(new TextEncoder().encode('<html>Sign in to the Wi-Fi</html>'))).toThrow(PackError);
    expect(() => decodePack(encoded.subarray(0, encoded.byteLength - 100))).toThrow('cut short');
    expect(() => decodePack(encoded.subarray(0, 20))).toThrow(PackError);
  });

  it('refuses a header that names an array of no kind it knows, or one before its data', () => {
    // A pack written by hand: the magic, the header's length and JSON, then 64 bytes of data.
    const handMade = (layout: unknown) => {
      const header = new TextEncoder().encode(JSON.stringify({ tree: { x: { $array: 0 } }, layout: [layout] }));
      const start = Math.ceil((8 + 4 + header.byteLength) / 8) * 8;
      const bytes = new Uint8Array(start + 64);
      bytes.set(new TextEncoder().encode('ALCHPK1\n'), 0);
      new DataView(bytes.buffer).setUint32(8, header.byteLength, true);
      bytes.set(header, 12);
      return bytes;
    };
    expect((decodePack(handMade({ type: 'f32', length: 4, offset: 0 })) as { x: Float32Array }).x).toHaveLength(4);
    for (const type of ['toString', 'constructor', 'q4']) {
      expect(() => decodePack(handMade({ type, length: 4, offset: 0, rowLength: 2 })), type).toThrow(PackError);
    }
    expect(() => decodePack(handMade({ type: 'f32', length: 4, offset: -8 }))).toThrow('cut short');
    expect(() => decodePack(handMade({ type: 'q8', length: 4, offset: -8, rowLength: 2 }))).toThrow('cut short');
  });

  it('refuses what it could not give back', () => {
    expect(() => encodePack({ bad: Number.NaN })).toThrow('NaN');
    expect(() => encodePack({ $array: 1 })).toThrow('$array');
    expect(() => new QuantisedRows(new Float32Array(7), 2)).toThrow('not rows of 2');
  });
});

describe("LSA's random projection, drawn a row at a time from its seed", () => {
  it('draws each row as the whole projection has it, bit for bit, at any width', () => {
    for (const dims of [512, 7, 1]) {
      const terms = 40;
      const whole = randomProjection(terms, dims);
      const rows = projectionRows(undefined, dims);
      for (const term of [0, 1, 17, terms - 1]) expect(rows(term)).toEqual(whole.subarray(term * dims, (term + 1) * dims));
    }
  });

  it('reads the saved projection where there is one', () => {
    const saved = randomFloats(12, 7);
    expect(projectionRows(saved, 4)(2)).toEqual(saved.subarray(8, 12));
  });
});
