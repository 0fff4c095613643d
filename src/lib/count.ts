/** A count with its noun: "1 vote", "2 votes", "0 votes". */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
