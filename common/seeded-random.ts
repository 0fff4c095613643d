/**
 * A seeded generator (mulberry32), so that a fit is the same on every machine. Its state moves
 * by a constant step per draw, so `skip` starts it as if that many draws had been made already:
 * a device draws one row of a random projection without the rows before it.
 */
export function seededRandom(seed: number, skip = 0): () => number {
  let state = (seed + Math.imul(skip, 0x6d2b79f5)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
