/**
 * How much memory `npm run votes -- export` takes for many votes: N votes (default 1,000,000, in
 * rounds of two, a thousand readers over thirty days, with the tallies they make) generated in a fresh embedded store in a
 * temporary folder (or in a schema of its own on DATABASE_URL), then exported as JSON lines into
 * a sink that counts the bytes, the process's RSS and heap sampled every 100 ms. Prints the
 * figures; run alone (it takes minutes): node --expose-gc --import tsx bench/export-memory.ts [VOTES] [csv].
 * With --expose-gc it also collects garbage once a second and reports the heap then alive: the
 * export's own memory, apart from garbage not yet collected.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { PASSAGE_KEY_SQL, writeVoteExport } from '../server/modules/arena/index.ts';
import { openEmbeddedDb, openPostgresDb, type Db } from '../server/platform/store/db.ts';
import { migrate } from '../server/platform/store/migrate.ts';

const votes = Number(process.argv[2] ?? 1_000_000);
const format = process.argv[3] === 'csv' ? 'csv' : 'jsonl';
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

async function open(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_${randomBytes(6).toString('hex')}`;
    const db = await openPostgresDb(url, { schema });
    return {
      db,
      drop: async () => {
        await db.close();
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      },
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'export-memory-'));
  const db = await openEmbeddedDb(path.join(dir, 'pgdata'));
  return { db, drop: async () => (await db.close(), await rm(dir, { recursive: true, force: true })) };
}

const { db, drop } = await open();
try {
  await migrate(db);
  let started = performance.now();
  // In statements of 100,000 votes: a round's two votes, shown with their receipt's pair, its
  // reader one of a thousand, its question one a reader asks once, its day one of thirty.
  for (let from = 0; from < votes; from += 100_000) {
    await db.query(
      `INSERT INTO feedback (author, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction,
                             confidence_score, question_id, passage_id, verdict, drawn_by, drawn_pair, created_at)
       SELECT 'reader' || (g / 2 % 1000), md5((g / 2)::text)::uuid, 'Enthusiast', 'x', 'question ' || (g / 2 / 1000), 'passage text',
              CASE WHEN g % 2 = 0 THEN 'LSA lsa-96' ELSE 'SIF sif-150' END, CASE WHEN g % 2 = 0 THEN 'A' ELSE 'B' END,
              (ARRAY['👍', '🤷', '👎'])[1 + g % 3], 0.5, md5('question ' || (g / 2 / 1000)), 'ch' || (g % 8) || '-' || (g % 30),
              'shown', 'server', E'LSA lsa-96\\nSIF sif-150',
              timestamptz '2026-11-01' + (g / 2 % 30) * interval '1 day' + (g % 86400) * interval '1 second'
       FROM generate_series($1::int, $2::int) AS g`,
      [from, Math.min(votes, from + 100_000) - 1],
    );
  }
  // The tallies those votes make (as saving them would): a round each, counted (a reader decides
  // about 17 a day, within the bound of 30).
  await db.query(
    `INSERT INTO arena_rounds (author, question_id, drawn_pair, user_type, lo_vote, lo_passage, lo_reaction, hi_vote, hi_passage, hi_reaction, status, round_key)
     SELECT author, question_id, drawn_pair, min(user_type),
            max(id) FILTER (WHERE model_type = 'LSA lsa-96'), max(${PASSAGE_KEY_SQL}) FILTER (WHERE model_type = 'LSA lsa-96'),
            max(reaction) FILTER (WHERE model_type = 'LSA lsa-96'),
            max(id) FILTER (WHERE model_type = 'SIF sif-150'), max(${PASSAGE_KEY_SQL}) FILTER (WHERE model_type = 'SIF sif-150'),
            max(reaction) FILTER (WHERE model_type = 'SIF sif-150'), 'counted', max(round_id::text)
     FROM feedback GROUP BY author, question_id, drawn_pair`,
  );
  console.log(`${votes.toLocaleString('en')} votes generated in ${((performance.now() - started) / 1000).toFixed(0)} s (${db.kind} store)`);

  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  let peakLive = before.heapUsed;
  let ticks = 0;
  const sampler = setInterval(() => {
    if (collect && ++ticks % 10 === 0) {
      collect();
      peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
    }
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 100);
  let bytes = 0;
  let firstByteMs = 0;
  started = performance.now();
  const sink = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      // A reader that takes its time (a pipe to a slow disk): the export must wait, not pile up.
      setImmediate(done);
    },
  });
  const { rows } = await writeVoteExport(db, { format, dailyRoundBound: 30 }, sink);
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `exported ${rows.toLocaleString('en')} rows as ${format}, ${mb(bytes)}, in ${seconds.toFixed(0)} s (first byte after ${(firstByteMs / 1000).toFixed(0)} s)`,
  );
  console.log(`RSS ${mb(before.rss)} before, ${mb(peakRss)} at most during (+${mb(peakRss - before.rss)})`);
  console.log(`JS heap ${mb(before.heapUsed)} before, ${mb(peakHeap)} at most during (+${mb(peakHeap - before.heapUsed)})`);
  if (collect) console.log(`JS heap alive after a collection: at most ${mb(peakLive)} during (+${mb(peakLive - before.heapUsed)})`);
} finally {
  await drop();
}
