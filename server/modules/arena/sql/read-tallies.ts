import type { Queryable } from '../../../platform/store/db.ts';
import { ROUND_LEFT_OUT, USER_TYPES, VOTE_LEFT_OUT, type Reaction, type RoundLeftOut, type UserType, type VoteLeftOut } from '../../../../contract/vocabulary.ts';
import type { RoundTally, VoteTallies } from '../stats/rounds.ts';
import { ANY_PENDING_SQL } from './tallies.ts';

/**
 * The statistics' input from the tallies kept at vote time (tallies.ts), not from every vote: the
 * counters (a few dozen rows) and each reader's counted rounds per pair (a row per reader, pair
 * and user type), read a page at a time, `between` awaited between pages (the embedded store
 * answers in this thread).
 */
export async function readTallies(db: Queryable, between?: () => Promise<void>): Promise<VoteTallies> {
  const counts = await readCounts(db);
  const count = (name: string) => counts.get(name) ?? 0;
  const reactions: VoteTallies['reactions'] = [];
  for (const [name, n] of counts) {
    if (!name.startsWith('reaction:') || n === 0) continue;
    const [model, userType, reaction] = name.slice('reaction:'.length).split('\n') as [string, UserType, Reaction];
    if (USER_TYPES.includes(userType)) reactions.push({ model, userType, reaction, count: n });
  }
  const rounds: RoundTally[] = [];
  for (const p of await readReaderPairs(db, between)) {
    const base = { reader: p.author, userType: p.user_type as UserType, a: p.lo, b: p.hi };
    if (p.lo_wins) rounds.push({ ...base, aReaction: '👍', bReaction: '👎', count: p.lo_wins });
    if (p.ties) rounds.push({ ...base, aReaction: '🤷', bReaction: '🤷', count: p.ties });
    if (p.hi_wins) rounds.push({ ...base, aReaction: '👎', bReaction: '👍', count: p.hi_wins });
  }
  return {
    votes: reactions.reduce((n, r) => n + r.count, 0),
    votesLeftOut: Object.fromEntries(VOTE_LEFT_OUT.map((reason) => [reason, count(`votes:${reason}`)])) as Record<VoteLeftOut, number>,
    reactions,
    rounds,
    roundsLeftOut: Object.fromEntries(ROUND_LEFT_OUT.map((reason) => [reason, count(`rounds:${reason}`)])) as Record<RoundLeftOut, number>,
    fromDevice: count('rounds:from-device'),
  };
}

/** Decided (counted) rounds per pair of arms, from the counters: what the draw balances. */
export async function decidedPairs(db: Queryable): Promise<Array<{ a: string; b: string; count: number }>> {
  const counts = await readCounts(db, 'decided:');
  return [...counts].map(([name, count]) => {
    const [a, b] = name.slice('decided:'.length).split('\n') as [string, string];
    return { a, b, count };
  });
}

/** The tallies' version (talliesVersion), and whether votes wait for the tallier, in one round trip. */
export async function talliesState(db: Queryable): Promise<{ version: string; waiting: boolean }> {
  const [row] = await db.query<{ n: string | null; waiting: boolean }>(
    `SELECT (SELECT sum(n)::text FROM arena_counts WHERE name = 'changes') AS n, ${ANY_PENDING_SQL} AS waiting`,
  );
  return { version: row?.n ?? '0', waiting: row?.waiting ?? false };
}

/** What the tallies are now, in a few bytes: how many votes have changed them (every instance sees the same). */
export async function talliesVersion(db: Queryable): Promise<string> {
  const [row] = await db.query<{ n: string | null }>(`SELECT sum(n)::text AS n FROM arena_counts WHERE name = 'changes'`);
  return row?.n ?? '0';
}

/** The counters, summed over their shards, whose names start with `prefix`. */
export async function readCounts(db: Queryable, prefix = ''): Promise<Map<string, number>> {
  const rows = await db.query<{ name: string; n: string }>(
    `SELECT name, sum(n)::text AS n FROM arena_counts WHERE starts_with(name, $1) GROUP BY name`,
    [prefix],
  );
  return new Map(rows.map((r) => [r.name, Number(r.n)]));
}

/** Each reader's counted rounds per pair and user type, a page at a time (keyset), `between` called between pages. */
export async function readReaderPairs(
  db: Queryable,
  between: () => Promise<void> = async () => undefined,
): Promise<Array<{ author: string; lo: string; hi: string; user_type: string; lo_wins: number; ties: number; hi_wins: number }>> {
  const all = [];
  let after = ['', '', '', ''];
  for (;;) {
    const page = await db.query<{ author: string; lo: string; hi: string; user_type: string; lo_wins: number; ties: number; hi_wins: number }>(
      `SELECT author, lo, hi, user_type, lo_wins, ties, hi_wins FROM arena_reader_pairs
       WHERE (author, lo, hi, user_type) > ($1, $2, $3, $4) AND lo_wins + ties + hi_wins > 0
       ORDER BY author, lo, hi, user_type LIMIT 5000`,
      after,
    );
    all.push(...page);
    if (page.length < 5000) return all;
    after = [page.at(-1)!.author, page.at(-1)!.lo, page.at(-1)!.hi, page.at(-1)!.user_type];
    await between();
  }
}
