import type { Queryable } from '../../../platform/store/db.ts';
import { addCounts, INCOMPLETE } from './tallies.ts';

/** Tallies worked out elsewhere (npm run arena:load), as columns: added to the store's, in bulk. */
export interface TallyTables {
  /** Columns: author, question_id, drawn_pair, user_type, lo_passage, lo_reaction, hi_passage, hi_reaction, status. */
  rounds: unknown[][];
  days: Array<[string, string, number]>;
  pairs: Array<[string, string, string, string, number, number, number]>;
  counts: ReadonlyMap<string, number>;
}

export async function loadTallies(db: Queryable, tables: TallyTables): Promise<void> {
  const CHUNK = 20_000;
  const total = tables.rounds[0]?.length ?? 0;
  for (let i = 0; i < total; i += CHUNK) {
    await db.query(
      `INSERT INTO arena_rounds (author, question_id, drawn_pair, user_type, lo_vote, lo_passage, lo_reaction, hi_vote, hi_passage, hi_reaction, status)
       SELECT a, q, d, u, 0, lp, lr, 0, hp, hr, s FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
         AS r(a, q, d, u, lp, lr, hp, hr, s)
       ON CONFLICT DO NOTHING`,
      tables.rounds.map((column) => column.slice(i, i + CHUNK)),
    );
  }
  const column = <T, K extends number>(rows: T[][], k: K) => rows.map((row) => row[k]);
  for (let i = 0; i < tables.days.length; i += CHUNK) {
    const rows = tables.days.slice(i, i + CHUNK);
    await db.query(
      `INSERT INTO arena_reader_days (author, day, decided) SELECT * FROM unnest($1::text[], $2::date[], $3::int[])
       ON CONFLICT (author, day) DO UPDATE SET decided = arena_reader_days.decided + EXCLUDED.decided`,
      [column(rows, 0), column(rows, 1), column(rows, 2)],
    );
  }
  for (let i = 0; i < tables.pairs.length; i += CHUNK) {
    const rows = tables.pairs.slice(i, i + CHUNK);
    await db.query(
      `INSERT INTO arena_reader_pairs (author, lo, hi, user_type, lo_wins, ties, hi_wins)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[])
       ON CONFLICT (author, lo, hi, user_type) DO UPDATE SET lo_wins = arena_reader_pairs.lo_wins + EXCLUDED.lo_wins,
         ties = arena_reader_pairs.ties + EXCLUDED.ties, hi_wins = arena_reader_pairs.hi_wins + EXCLUDED.hi_wins`,
      [0, 1, 2, 3, 4, 5, 6].map((k) => column(rows, k)),
    );
  }
  await addCounts(db, 0, new Map([...tables.counts, [INCOMPLETE, 1]]));
}
