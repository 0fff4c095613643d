/**
 * The arena's draw: which two arms answer a `both` search. Pure: the decided rounds per pair and
 * a random source in, a pair out.
 */

/** An unordered pair of arms (by the name votes carry) and how many decided rounds it has had. */
export interface PairCount {
  pair: readonly [string, string];
  decided: number;
}

/** The key of an unordered pair: the same whichever way round the two are named. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** Every unordered pair of `arms`, each with its decided rounds (a pair absent from `decided` has had none). */
export function pairCounts(arms: readonly string[], decided: ReadonlyMap<string, number>): PairCount[] {
  const counts: PairCount[] = [];
  for (let i = 0; i < arms.length; i++) {
    for (let j = i + 1; j < arms.length; j++) {
      counts.push({ pair: [arms[i]!, arms[j]!], decided: decided.get(pairKey(arms[i]!, arms[j]!)) ?? 0 });
    }
  }
  return counts;
}

/**
 * The pairs with the fewest decided rounds (each with its arms in the order given: which is shown
 * as A is the client's draw).
 */
export function leastDecidedPairs(counts: readonly PairCount[]): (readonly [string, string])[] {
  if (counts.length === 0) throw new RangeError('there is no pair to draw: the pool has fewer than two arms');
  const fewest = Math.min(...counts.map((c) => c.decided));
  return counts.filter((c) => c.decided === fewest).map((c) => c.pair);
}

/** One of `items` at random; `random` gives numbers in [0, 1), as Math.random does. */
export function pickOne<T>(items: readonly T[], random: () => number): T {
  if (items.length === 0) throw new RangeError('there is nothing to pick from');
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
}

/** The pair with the fewest decided rounds, ties broken at random (leastDecidedPairs, pickOne). */
export function leastDecidedPair(counts: readonly PairCount[], random: () => number): readonly [string, string] {
  return pickOne(leastDecidedPairs(counts), random);
}

/** Decided rounds per unordered pair, from rounds grouped by the arms shown as A and B (`count` rounds each). */
export function decidedRoundsPerPair(rounds: ReadonlyArray<{ a: string; b: string; count: number }>): Map<string, number> {
  const decided = new Map<string, number>();
  for (const { a, b, count } of rounds) decided.set(pairKey(a, b), (decided.get(pairKey(a, b)) ?? 0) + count);
  return decided;
}
