import { describe, expect, it } from 'vitest';
import { RowSum } from '../../common/search/row-sum.ts';
import { seededRandom } from '../../common/seeded-random.ts';

/** The sum as the kernel makes it, in plain JavaScript: each product and each sum a float32, in order. */
function float32Sum(matrix: Float32Array, dim: number, terms: Array<[number, number]>): Float32Array {
  const out = new Float32Array(dim);
  for (const [row, weight] of terms) {
    const w = Math.fround(weight);
    for (let c = 0; c < dim; c++) out[c] = Math.fround(out[c]! + Math.fround(w * matrix[row * dim + c]!));
  }
  return out;
}

describe('weighted sums of rows (the SIMD kernel a model makes a text vector with)', () => {
  it('gives Σ weight × row in float32, in the terms’ order, for any dimension and any number of terms', () => {
    const random = seededRandom(5);
    for (const dim of [1, 3, 4, 150, 352]) {
      const rows = 60;
      const matrix = Float32Array.from({ length: rows * dim }, () => random() - 0.5);
      const sums = new RowSum(rows, dim, (row, into) => into.set(matrix.subarray(row * dim, (row + 1) * dim)));
      // A question's hundred terms, and a list longer than one call of the kernel takes.
      for (const length of [1, 100, 2500]) {
        const terms = Array.from({ length }, (): [number, number] => [Math.floor(random() * rows), random() * 3]);
        expect(Array.from(sums.sum(terms))).toEqual(Array.from(float32Sum(matrix, dim, terms)));
      }
      expect(Array.from(sums.sum([]))).toEqual(new Array<number>(dim).fill(0));
    }
  });

  it('fills each row once, when a sum first needs it, and refuses a row it does not hold', () => {
    const filled: number[] = [];
    const sums = new RowSum(10, 2, (row, into) => {
      filled.push(row);
      into.set([row, -row]);
    });
    expect(filled).toEqual([]);
    expect(Array.from(sums.sum(new Map([[3, 1], [7, 0.5]])))).toEqual([6.5, -6.5]);
    expect(Array.from(sums.sum([[7, 2]]))).toEqual([14, -14]);
    expect(filled).toEqual([3, 7]);
    expect(() => sums.sum([[10, 1]])).toThrow(RangeError);
    expect(() => sums.sum([[-1, 1]])).toThrow(RangeError);
    expect(() => sums.sum([[1.5, 1]])).toThrow(RangeError);
  });
});
