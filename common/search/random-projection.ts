import { seededRandom } from '../seeded-random.ts';

/** The seed of LSA's lexical projection: a model's version covers it (a new seed is a new model). */
export const PROJECTION_SEED = 20261122;

/**
 * Values `from` to `to` of the seeded Gaussian stream: pairs of standard normal values, each from
 * two uniform draws (Box–Muller), the pair at even position i from draws i and i + 1. Any stretch
 * is drawn alone, with the same values as the whole stream has there.
 */
function gaussians(from: number, to: number, seed: number): Float32Array {
  const out = new Float32Array(to - from);
  const first = from - (from % 2);
  const random = seededRandom(seed, first);
  for (let i = first; i < to; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - random()));
    const theta = 2 * Math.PI * random();
    if (i >= from) out[i - from] = r * Math.cos(theta);
    if (i + 1 < to) out[i + 1 - from] = r * Math.sin(theta);
  }
  return out;
}

/**
 * A seeded Gaussian random projection (Johnson–Lindenstrauss): the vocabulary-wide tf-idf vector
 * becomes a dense one of `dims` whose dot products keep the original cosines closely, so the
 * lexical evidence is scanned like the rest of the embedding. `terms` rows of `dims`.
 */
export function randomProjection(terms: number, dims: number, seed = PROJECTION_SEED): Float32Array {
  return gaussians(0, terms * dims, seed);
}

/**
 * Row by row access to a projection: the saved array's rows where there is one, else each row
 * drawn from the seed when asked for (a device never draws the rows no query needs; the caller
 * keeps those it has drawn: lsa.ts copies each into its sums' matrix once).
 */
export function projectionRows(saved: Float32Array | undefined, dims: number, seed = PROJECTION_SEED): (term: number) => Float32Array {
  if (saved) return (term) => saved.subarray(term * dims, (term + 1) * dims);
  return (term) => gaussians(term * dims, (term + 1) * dims, seed);
}
