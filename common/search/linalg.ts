import { seededRandom } from '../seeded-random.ts';
/** The little dense linear algebra the corpus-fitted models need, on Float64Arrays in row-major order. */

/** Eigen-decomposition of a symmetric n×n matrix by cyclic Jacobi rotations; eigenvalues descending. */
export function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  // Rotations keep the Frobenius norm: converged once the off-diagonal part is a rounding error of
  // it (an absolute bound is never reached by a matrix with large eigenvalues, and cost 60 sweeps).
  let total = 0;
  for (let i = 0; i < n * n; i++) total += a[i]! ** 2;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off <= 1e-26 * total || off < 1e-22) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j]! - a[i * n + i]!);
  const values = Float64Array.from(order, (i) => a[i * n + i]!);
  const vectors = new Float64Array(n * n);
  order.forEach((from, to) => {
    for (let k = 0; k < n; k++) vectors[k * n + to] = v[k * n + from]!;
  });
  return { values, vectors };
}

/** A sparse symmetric matrix in compressed rows. */
export interface SparseMatrix {
  n: number;
  rowStart: Int32Array;
  cols: Int32Array;
  values: Float64Array;
}

/** out (n×m) = M (n×n, sparse) · X (n×m) */
function sparseTimesDense(m: SparseMatrix, x: Float64Array, cols: number): Float64Array {
  const out = new Float64Array(m.n * cols);
  for (let i = 0; i < m.n; i++) {
    for (let e = m.rowStart[i]!; e < m.rowStart[i + 1]!; e++) {
      const j = m.cols[e]!;
      const w = m.values[e]!;
      for (let c = 0; c < cols; c++) out[i * cols + c]! += w * x[j * cols + c]!;
    }
  }
  return out;
}

/**
 * Orthonormalises the columns of X (n×m) in place, by modified Gram–Schmidt. The columns are
 * worked on in a column-major copy, so that each pass reads memory in order (same arithmetic).
 */
function orthonormalise(x: Float64Array, n: number, m: number): void {
  const t = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let c = 0; c < m; c++) t[c * n + i] = x[i * m + c]!;
  for (let c = 0; c < m; c++) {
    const col = t.subarray(c * n, c * n + n);
    for (let prev = 0; prev < c; prev++) {
      const other = t.subarray(prev * n, prev * n + n);
      let dot = 0;
      for (let i = 0; i < n; i++) dot += col[i]! * other[i]!;
      for (let i = 0; i < n; i++) col[i]! -= dot * other[i]!;
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += col[i]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < n; i++) col[i]! /= norm;
  }
  for (let i = 0; i < n; i++) for (let c = 0; c < m; c++) x[i * m + c] = t[c * n + i]!;
}


/**
 * The k eigenpairs of largest eigenvalue of a sparse symmetric matrix, by subspace iteration
 * with a few extra columns of slack; eigenvectors are the columns of an n×k matrix.
 */
export function topEigenSparse(
  m: SparseMatrix,
  k: number,
  iterations = 6,
  seed = 7,
): { values: Float64Array; vectors: Float64Array } {
  const width = Math.min(m.n, k + 12);
  const random = seededRandom(seed);
  let q: Float64Array = Float64Array.from({ length: m.n * width }, () => random() - 0.5);
  orthonormalise(q, m.n, width);
  for (let it = 0; it < iterations; it++) {
    q = sparseTimesDense(m, q, width);
    orthonormalise(q, m.n, width);
  }
  const mq = sparseTimesDense(m, q, width);
  const small = new Float64Array(width * width);
  for (let a = 0; a < width; a++) {
    for (let b = 0; b < width; b++) {
      let dot = 0;
      for (let i = 0; i < m.n; i++) dot += q[i * width + a]! * mq[i * width + b]!;
      small[a * width + b] = dot;
    }
  }
  // Qᵀ M Q is symmetric only when M is (SIF's PMI, with its smoothed context distribution, is
  // not quite): its symmetric part, which the Jacobi solver needs to converge at all.
  for (let a = 0; a < width; a++) {
    for (let b = a + 1; b < width; b++) {
      const mean = (small[a * width + b]! + small[b * width + a]!) / 2;
      small[a * width + b] = mean;
      small[b * width + a] = mean;
    }
  }
  const { values, vectors } = symmetricEigen(small, width);
  const out = new Float64Array(m.n * k);
  for (let i = 0; i < m.n; i++) {
    for (let c = 0; c < k; c++) {
      let sum = 0;
      for (let j = 0; j < width; j++) sum += q[i * width + j]! * vectors[j * width + c]!;
      out[i * k + c] = sum;
    }
  }
  return { values: values.slice(0, k), vectors: out };
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/**
 * The first principal component (uncentred) of `rows`, each of `k` dimensions, by power
 * iteration from a fixed start, so that a fit is the same every time.
 */
export function firstPrincipalComponent(rows: Float32Array[], k: number, iterations = 50): Float32Array {
  let u = normalise(Float32Array.from({ length: k }, (_, i) => 1 / (i + 1)));
  for (let it = 0; it < iterations; it++) {
    const next = new Float32Array(k);
    for (const row of rows) {
      let dot = 0;
      for (let c = 0; c < k; c++) dot += row[c]! * u[c]!;
      for (let c = 0; c < k; c++) next[c]! += dot * row[c]!;
    }
    u = normalise(next);
  }
  return u;
}

/** Takes the unit direction `u` out of `v`, in place. */
export function removeDirection(v: Float32Array, u: Float32Array): Float32Array {
  let dot = 0;
  for (let c = 0; c < u.length; c++) dot += v[c]! * u[c]!;
  for (let c = 0; c < u.length; c++) v[c]! -= dot * u[c]!;
  return v;
}
