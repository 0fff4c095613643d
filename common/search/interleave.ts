/** Round-robin across ranked lists: first of each, then second of each, and so on. */
export function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest; rank++) for (const list of lists) if (rank < list.length) out.push(list[rank]!);
  return out;
}
