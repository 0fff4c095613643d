/**
 * npm run arena:load -- --votes N [--readers R] [--seed 1]: fills the configured store
 * (DATABASE_URL, else DATA_DIR's embedded store) with N realistic votes and the tallies they make,
 * fast: bulk inserts, the tallies worked out here. Readers play about 200 votes each (100 rounds
 * over several days, at most 25 decided rounds a day, under the daily bound), 80% Enthusiasts;
 * each round is a search of the weight-free pool's pair (LSA, SIF, BM25), its two first passages
 * rated (LSA a little stronger, BM25 weaker), 10% of rounds showing one passage twice. For the
 * bench (bench/measure-arena.ts); never for a store with real votes.
 */
import { parseArgs } from 'node:util';
import { seededRandom } from '../common/seeded-random.ts';
import { loadConfig } from '../server/platform/config/config.ts';
import { openDb, type Db } from '../server/platform/store/db.ts';
import { migrate } from '../server/platform/store/migrate.ts';
import { servableModelTypes } from '../server/modules/search/index.ts';
import { loadTallies, passageKey } from '../server/modules/arena/index.ts';

const USAGE = 'Usage: npm run arena:load -- --votes N [--readers R] [--seed 1]';
const STRENGTH: Record<string, number> = { LSA: 1.3, SIF: 1.2, BM25: 0.6 };

export async function loadVotes(db: Db, votes: number, options: { readers?: number; seed?: number; arms: string[]; bound: number; now?: number }): Promise<void> {
  const random = seededRandom(options.seed ?? 1);
  const arms = options.arms;
  const pairs = arms.flatMap((a, i) => arms.slice(i + 1).map((b) => [a, b].sort() as [string, string]));
  const rounds = Math.floor(votes / 2);
  const readers = options.readers ?? Math.max(1, Math.round(votes / 200));
  const now = options.now ?? Date.now();
  const strength = (arm: string) => STRENGTH[arm.split(' ')[0]!] ?? 1;
  const rows: unknown[][] = Array.from({ length: 11 }, () => []);
  const batch = new TallyBatch();
  const flush = async () => {
    if (rows[0]!.length === 0) return;
    await db.query(
      `INSERT INTO feedback (author, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction,
         confidence_score, question_id, passage_id, verdict, drawn_by, drawn_pair, created_at)
       SELECT v.author, v.round_id, v.user_type, v.author, v.query, v.passage, v.model_type, v.label, v.reaction, 0, v.question_id,
              v.passage, 'shown', 'server', v.drawn_pair, v.created_at
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])
         AS v(author, round_id, user_type, query, question_id, passage, model_type, label, reaction, drawn_pair, created_at)`,
      rows,
    );
    for (const column of rows) column.length = 0;
  };
  for (let r = 0; r < rounds; r++) {
    const reader = r % readers;
    const nth = Math.floor(r / readers);
    const author = `load-${reader}`;
    const userType = reader % 5 === 0 ? 'Ustaz' : 'Enthusiast';
    const day = Math.floor(nth / 25);
    const at = new Date(now - (day + 1) * 86_400_000 + (nth % 25) * 60_000 + reader);
    const [lo, hi] = pairs[Math.floor(random() * pairs.length)]!;
    const question = `q${reader}-${nth}`;
    const same = random() < 0.1;
    const [pl, ph] = same ? ['ch1-1', 'ch1-1'] : [`ch${1 + (r % 40)}-1`, `ch${1 + (r % 40)}-2`];
    const p = strength(lo) / (strength(lo) + strength(hi));
    const u = random();
    const [rl, rh] = u < 0.1 ? ['🤷', '🤷'] : u < 0.1 + 0.9 * p ? ['👍', '👎'] : ['👎', '👍'];
    const roundId = `00000000-0000-4000-8000-${String(r).padStart(12, '0')}`;
    const drawn = `${lo}\n${hi}`;
    for (const [model, passage, reaction, label] of [[lo, pl, rl, 'A'], [hi, ph, rh, 'B']] as const) {
      for (const [i, value] of [author, roundId, userType, question, question, passage, model, label, reaction, drawn, at].entries()) rows[i]!.push(value);
    }
    batch.round(author, userType, question, drawn, lo, hi, pl, ph, rl, rh, at, options.bound);
    if (rows[0]!.length >= 20_000) await flush();
  }
  await flush();
  await loadTallies(db, batch.tables());
}

/** The tallies N generated rounds make, as tallies.ts would have kept them vote by vote. */
class TallyBatch {
  private readonly roundsRows: unknown[][] = Array.from({ length: 9 }, () => []);
  private readonly days = new Map<string, number>();
  private readonly pairs = new Map<string, number[]>();
  private readonly counts = new Map<string, number>();
  private add(name: string, n = 1) {
    this.counts.set(name, (this.counts.get(name) ?? 0) + n);
  }
  round(author: string, userType: string, question: string, drawn: string, lo: string, hi: string, pl: string, ph: string, rl: string, rh: string, at: Date, bound: number) {
    this.add('changes', 2);
    this.add(`reaction:${lo}\n${userType}\n${rl}`);
    this.add(`reaction:${hi}\n${userType}\n${rh}`);
    let status = 'same-passage';
    if (pl !== ph) {
      const dayKey = `${author}\n${at.toISOString().slice(0, 10)}`;
      const decided = (this.days.get(dayKey) ?? 0) + 1;
      this.days.set(dayKey, decided);
      status = decided <= bound ? 'counted' : 'over-daily-bound';
    }
    this.add(status === 'counted' ? 'rounds:compared' : `rounds:${status}`);
    if (status === 'counted') {
      this.add(`decided:${lo}\n${hi}`);
      const key = `${author}\n${lo}\n${hi}\n${userType}`;
      const t = this.pairs.get(key) ?? [0, 0, 0];
      t[rl === rh ? 1 : rl === '👍' ? 0 : 2]! += 1;
      this.pairs.set(key, t);
    }
    // Kept as tallies.ts keeps a passage: by its set (the votes above are stored under the default, v1) and id.
    for (const [i, value] of [author, question, drawn, userType, passageKey('v1', pl), rl, passageKey('v1', ph), rh, status].entries()) this.roundsRows[i]!.push(value);
  }
  tables() {
    return {
      rounds: this.roundsRows,
      days: [...this.days].map(([key, n]) => [...key.split('\n'), n] as [string, string, number]),
      pairs: [...this.pairs].map(([key, t]) => [...key.split('\n'), ...t] as [string, string, string, string, number, number, number]),
      counts: this.counts,
    };
  }
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({ options: { votes: { type: 'string' }, readers: { type: 'string' }, seed: { type: 'string', default: '1' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const whole = (raw: string | undefined) => (raw !== undefined && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null);
  const votes = whole(values.votes);
  if (votes === null || (values.readers !== undefined && whole(values.readers) === null)) {
    console.error(`--votes (and --readers) must be whole numbers above 0\n${USAGE}`);
    process.exit(2);
  }
  const config = loadConfig();
  const db = await openDb(config);
  try {
    await migrate(db);
    const started = performance.now();
    const arms = servableModelTypes(config).filter((m) => /^(LSA|SIF|BM25) /.test(m));
    await loadVotes(db, votes, { readers: whole(values.readers) ?? undefined, seed: Number(values.seed), arms, bound: config.dailyRoundBound });
    console.log(`${votes} votes and their tallies stored in ${((performance.now() - started) / 1000).toFixed(1)} s (${arms.length} arms).`);
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
