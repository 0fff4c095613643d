import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackItem } from '../../contract/api-schemas.ts';
import type { Reaction } from '../../contract/vocabulary.ts';
import { listenForAdmin } from '../../server/modules/admin/admin-socket.ts';
import { EXPORT_FIELDS, type ExportRow } from '../../server/modules/arena/export-format.ts';
import { questionId } from '../../server/modules/arena/question.ts';
import type { Verdict } from '../../server/modules/arena/shown-check.ts';
import { judgeOf, writeVoteExport } from '../../server/modules/arena/vote-export.ts';
import { createLogger } from '../../server/platform/log.ts';
import { computeStats } from '../../server/modules/arena/stats/model-stats.ts';
import { arenaSecret } from '../../server/modules/arena/sql/arena-secrets.ts';
import { openEmbeddedDb, type Db } from '../../server/platform/store/db.ts';
import { deleteFeedbackOf, saveFeedback } from '../../server/modules/arena/sql/feedback.ts';
import { readTallies } from '../../server/modules/arena/sql/read-tallies.ts';
import { migrate } from '../../server/platform/store/migrate.ts';
import { EXPORT_PAGE_ROWS } from '../../server/modules/arena/sql/vote-rows.ts';
import { STORES, openTestDb, saveAndTally, type TestDb } from './harness.ts';

const run = promisify(execFile);

function askSocket(socketPath: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ socketPath, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}
const BOUND = 2;
const DAY = Date.parse('2026-11-23T09:00:00Z');

/**
 * A vote with its verdict, as the service stores it (the passage's id is its text here): a vote
 * shown with the pair its receipt drew (`pair`, its two arms in order).
 */
function vote(round: string | undefined, label: 'A' | 'B', model: string, reaction: Reaction, query: string, passage: string, verdict: Verdict = 'shown', pair = 'LSA\nSIF') {
  const item: FeedbackItem = {
    user_type: 'Ustaz',
    username: 'anyone',
    query,
    retrieved_text: passage,
    model_type: model,
    result_label: label,
    reaction,
    confidence_score: 0.5,
    client_id: randomUUID(),
    ...(round ? { round_id: round } : {}),
  };
  const drawn = verdict === 'shown' ? { drawnBy: 'server' as const, drawnPair: pair } : { drawnBy: null, drawnPair: null };
  return { ...item, questionId: questionId(query), passageId: passage, passageSet: 'now', passageSha256: null, verdict, ...drawn };
}

/**
 * A reader's history holding every kind of row: counted rounds (a win, a tie, a tie where both were
 * bad), one sent again, one past the daily bound, a lone vote, one made-up passage, a vote
 * rated again within its round, and a round of the next day. Returns what the export should say.
 */
async function storeHistory(db: Db): Promise<void> {
  const at = (minutes: number) => new Date(DAY + minutes * 60_000);
  const round = (query: string, ra: Reaction, rb: Reaction, verdictB: Verdict = 'shown') => {
    const id = randomUUID();
    return [vote(id, 'A', 'LSA', ra, query, `lsa on ${query}`), vote(id, 'B', 'SIF', rb, query, `sif on ${query}`, verdictB)];
  };
  await saveAndTally(db, 'fatima', round('patience, "sabr"\nand trust', '👍', '🤷'), at(0), BOUND); // counted: model_a
  await saveAndTally(db, 'fatima', round('patience, "sabr"\nand trust', '👎', '👍'), at(1), BOUND); // the same round again: this one counts, the first is a repeat
  await saveAndTally(db, 'fatima', round('gratitude', '👎', '👎'), at(2), BOUND); // counted: tie (bothbad); the day's second
  await saveAndTally(db, 'fatima', round('envy', '🤷', '🤷'), at(3), BOUND); // over the bound of 2
  await saveAndTally(db, 'fatima', [vote(randomUUID(), 'A', 'LSA', '👍', 'pride', 'lsa on pride')], at(4), BOUND); // one-sided
  await saveAndTally(db, 'fatima', round('anger', '👍', '👎', 'not-shown'), at(5), BOUND); // a made-up passage as B
  const again = randomUUID();
  await saveAndTally(db, 'fatima', [vote(again, 'A', 'LSA', '👍', 'hope', 'lsa on hope'), vote(again, 'B', 'SIF', '👍', 'hope', 'sif on hope')], at(6), BOUND);
  await saveAndTally(db, 'fatima', [vote(again, 'B', 'SIF', '👎', 'hope', 'sif on hope')], at(7), BOUND); // B rated again: model_a wins, the first B a lone repeat
  await saveAndTally(db, 'fatima', [vote(undefined, 'B', 'SIF', '👍', 'fear', 'sif on fear')], at(8), BOUND); // no round id: a lone vote
  await saveAndTally(db, 'zaynab', round('hope', '👍', '🤷'), at(60 * 24), BOUND); // the next day, another reader: counted
}

/** Writes the export into a string. */
async function exported(db: Db, format: 'jsonl' | 'csv', since?: Date): Promise<string> {
  return (await exportedWith(db, format, { since })).text;
}

/** Writes the export into a string, with the cursor it ended with. */
async function exportedWith(db: Db, format: 'jsonl' | 'csv', options: { since?: Date; after?: string }): Promise<{ text: string; cursor: string }> {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const { cursor } = await writeVoteExport(db, { format, ...options, dailyRoundBound: BOUND }, out);
  return { text, cursor };
}

function jsonRows(text: string): ExportRow[] {
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as ExportRow);
}

/** An RFC 4180 reader: records of fields, quoted fields with doubled quotes and line breaks; throws on anything else. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let at = 0;
  while (at < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[at] === '"') {
        at++;
        for (;;) {
          const quote = text.indexOf('"', at);
          if (quote < 0) throw new Error('an unclosed quote');
          field += text.slice(at, quote);
          at = quote + 1;
          if (text[at] !== '"') break;
          field += '"';
          at++;
        }
      } else {
        const end = text.slice(at).search(/[,\r\n"]/);
        const stop = end < 0 ? text.length : at + end;
        if (text[stop] === '"') throw new Error(`a quote inside an unquoted field at ${stop}`);
        field = text.slice(at, stop);
        at = stop;
      }
      record.push(field);
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text.startsWith('\r\n', at)) {
        at += 2;
        break;
      }
      throw new Error(`a record not ended by CRLF at ${at}`);
    }
    records.push(record);
  }
  return records;
}

describe.each(STORES)('npm run votes -- export, its rows, on %s store', (store) => {
  let test: TestDb;
  beforeAll(async () => {
    test = await openTestDb(store);
    await storeHistory(test.db);
  });
  afterAll(() => test.drop());

  it('gives every round, counted and left out, one valid JSON object a line, named as arena datasets name them', async () => {
    const lines = (await exported(test.db, 'jsonl')).split('\n');
    expect(lines.pop()).toBe('');
    const rows = lines.map((line) => JSON.parse(line) as ExportRow);
    for (const row of rows) expect(Object.keys(row)).toEqual(EXPORT_FIELDS);
    const secret = await arenaSecret(test.db, 'judge');
    const brief = rows.map((r) => [r.query, r.winner, r.counted, r.left_out_reason, r.kind]);
    // anger's two rows share their last vote's time: their order is their votes' (a batch is stored in client_id order).
    const anger = brief.slice(5, 7).sort((a, b) => String(a[3]).localeCompare(String(b[3])));
    expect([...brief.slice(0, 5), ...anger, ...brief.slice(7)]).toEqual([
      ['patience, "sabr"\nand trust', 'model_a', false, 'repeat', 'round'],
      ['patience, "sabr"\nand trust', 'model_b', true, '', 'round'],
      ['gratitude', 'tie (bothbad)', true, '', 'round'],
      ['envy', 'tie', false, 'over-daily-bound', 'round'],
      ['pride', '', false, 'one-sided', 'round'],
      // A shown A beside a B that is no passage: A's round, one-sided; B's round_id, left out.
      ['anger', '', false, 'not-shown', 'round'],
      ['anger', '', false, 'one-sided', 'round'],
      ['hope', '', false, 'repeat', 'vote'],
      ['hope', 'model_a', false, 'over-daily-bound', 'round'],
      ['fear', '', false, 'one-sided', 'round'],
      ['hope', 'model_a', true, '', 'round'],
    ]);
    // The export counts what /api/stats counts (the tallies kept at vote time).
    const stats = computeStats(await readTallies(test.db), BOUND);
    expect(rows.filter((r) => r.counted)).toHaveLength(stats.rounds.compared);
    expect(rows.filter((r) => r.kind === 'round' && r.left_out_reason === 'repeat')).toHaveLength(stats.rounds.leftOut.repeat);
    expect(rows.filter((r) => r.left_out_reason === 'over-daily-bound')).toHaveLength(stats.rounds.leftOut.overDailyBound);
    const [first] = rows;
    expect(first).toMatchObject({
      question_id: questionId('patience, "sabr"\nand trust'),
      model_a: 'LSA',
      model_b: 'SIF',
      passage_a: 'lsa on patience, "sabr"\nand trust',
      passage_b: 'sif on patience, "sabr"\nand trust',
      reaction_a: '👍',
      reaction_b: '🤷',
      user_type: 'Ustaz',
      tstamp: DAY / 1000,
      judge: judgeOf(secret, 'fatima'),
    });
    // A keyed hash of the reader, never the name: the same reader the same judge, another reader another.
    expect(first!.judge).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(rows.slice(0, -1).map((r) => r.judge)).size).toBe(1);
    expect(rows.at(-1)!.judge).toBe(judgeOf(secret, 'zaynab'));
    expect(JSON.stringify(rows)).not.toMatch(/fatima|zaynab/);
    // A lone B vote sits on B's side.
    expect(rows.find((r) => r.query === 'fear')).toMatchObject({ model_a: null, model_b: 'SIF', passage_b: 'sif on fear', reaction_b: '👍' });
  });

  it('gives the same rows as CSV by RFC 4180, with a header, and only those from --since on', async () => {
    const jsonRows = (await exported(test.db, 'jsonl')).trimEnd().split('\n').map((line) => JSON.parse(line) as ExportRow);
    const [header, ...records] = parseCsv(await exported(test.db, 'csv'));
    expect(header).toEqual(EXPORT_FIELDS);
    expect(records).toEqual(jsonRows.map((row) => EXPORT_FIELDS.map((field) => (row[field] === null ? '' : String(row[field])))));
    const since = new Date(DAY + 5 * 60_000);
    const later = (await exported(test.db, 'jsonl', since)).trimEnd().split('\n').map((line) => JSON.parse(line) as ExportRow);
    expect(later).toEqual(jsonRows.filter((row) => row.tstamp * 1000 >= since.getTime()));
    expect(later).toHaveLength(6);
    expect(parseCsv(await exported(test.db, 'csv', new Date(DAY + 2 * 86_400_000)))).toEqual([EXPORT_FIELDS]);
  });

  it('holds a page of rows at a time, whatever the number of votes, while its reader is slow', async () => {
    const big = await openTestDb(store);
    try {
      // 5,000 rounds of one reader: ten thousand votes.
      await big.db.query(`INSERT INTO feedback (author, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction,
                                                confidence_score, question_id, passage_id, verdict)
        SELECT 'reader', md5((g / 2)::text)::uuid, 'Enthusiast', 'reader', 'q' || (g / 2), 'p', CASE WHEN g % 2 = 0 THEN 'LSA' ELSE 'SIF' END,
               CASE WHEN g % 2 = 0 THEN 'A' ELSE 'B' END, '👍', 0.5, 'q' || (g / 2), 'p' || g, 'shown'
        FROM generate_series(0, 9999) AS g`);
      // A reader taking one chunk at a time, when the test lets it; the pages fetched are counted as they come.
      let fetched = 0;
      const counting: Db = {
        ...big.db,
        kind: big.db.kind,
        query: (sql, params) => ((fetched += sql.startsWith('FETCH') ? 1 : 0), big.db.query(sql, params)),
        transaction: (work, options) =>
          big.db.transaction((tx) => work({ ...tx, query: (sql, params) => ((fetched += sql.startsWith('FETCH') ? 1 : 0), tx.query(sql, params)) }), options),
      };
      const waiting: Array<() => void> = [];
      let taken = 0;
      let rows = 0;
      let free = false;
      const slow = new Writable({
        highWaterMark: 1,
        write(chunk: Buffer, _encoding, done) {
          rows += chunk.toString('utf8').split('\n').length - 1;
          if (free) done();
          else waiting.push(() => ((taken += 1), done()));
        },
      });
      const exporting = writeVoteExport(counting, { format: 'jsonl', dailyRoundBound: 10_000 }, slow);
      const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
      const pages = Math.ceil(5000 / EXPORT_PAGE_ROWS);
      for (let page = 0; page < pages; page++) {
        await settle();
        // Never more than the page being written and the one waiting for room.
        expect(fetched - taken).toBeLessThanOrEqual(1);
        waiting.shift()?.();
      }
      // Then as fast as it comes.
      free = true;
      while (waiting.length) waiting.shift()!();
      await exporting;
      expect(rows).toBe(5000);
    } finally {
      await big.drop();
    }
  });
});

describe.each(STORES)('npm run votes -- export --after, exactly once, on %s store', (store) => {
  let test: TestDb;
  beforeAll(async () => {
    test = await openTestDb(store);
  });
  afterAll(() => test.drop());

  const at = (minutes: number) => new Date(DAY + minutes * 60_000);
  const pair = (id: string, query: string, ra: Reaction, rb: Reaction) => [
    vote(id, 'A', 'LSA', ra, query, `lsa on ${query}`),
    vote(id, 'B', 'SIF', rb, query, `sif on ${query}`),
  ];

  it('gives every new or changed row once; two incremental exports joined are one full export', async () => {
    const db = test.db;
    const lone = randomUUID();
    const rated = randomUUID();
    await saveAndTally(db, 'fatima', [vote(lone, 'A', 'LSA', '👍', 'patience', 'lsa on patience')], at(0), BOUND); // one-sided, for now
    await saveAndTally(db, 'fatima', pair(rated, 'gratitude', '👍', '🤷'), at(1), BOUND);
    await saveAndTally(db, 'zaynab', pair(randomUUID(), 'envy', '👎', '👍'), at(2), BOUND);
    const first = await exportedWith(db, 'jsonl', {});
    const firstRows = jsonRows(first.text);
    expect(firstRows.map((r) => [r.query, r.left_out_reason])).toEqual([
      ['patience', 'one-sided'],
      ['gratitude', ''],
      ['envy', ''],
    ]);
    expect(new Set(firstRows.map((r) => r.round_id)).size).toBe(3);
    // Nothing new: nothing again (the boundary gave 6 duplicates with --since).
    expect(jsonRows((await exportedWith(db, 'jsonl', { after: first.cursor })).text)).toEqual([]);

    // Votes in between: the lone vote paired, a round rated again, a new round, and one sent again later (the earlier a repeat).
    await saveAndTally(db, 'fatima', [vote(lone, 'B', 'SIF', '🤷', 'patience', 'sif on patience')], at(3), BOUND);
    await saveAndTally(db, 'fatima', [vote(rated, 'B', 'SIF', '👍', 'gratitude', 'sif on gratitude')], at(4), BOUND);
    await saveAndTally(db, 'zaynab', pair(randomUUID(), 'envy', '👍', '👍'), at(5), BOUND);
    await saveAndTally(db, 'zaynab', pair(randomUUID(), 'hope', '👍', '👎'), at(6), BOUND);
    const second = await exportedWith(db, 'jsonl', { after: first.cursor });
    const secondRows = jsonRows(second.text);
    expect(Number(second.cursor)).toBeGreaterThan(Number(first.cursor));
    const byQuery = (rows: ExportRow[], query: string) => rows.filter((r) => r.query === query).map((r) => [r.left_out_reason, r.winner]);
    // The lone vote, now paired: the same round_id, a new revision.
    const patience = secondRows.find((r) => r.query === 'patience')!;
    expect(patience).toMatchObject({ round_id: firstRows[0]!.round_id, winner: 'model_a', left_out_reason: '' });
    expect(patience.revision).toBeGreaterThan(firstRows[0]!.revision);
    // The round rated again: changed; the replaced B vote a row of its own.
    expect(byQuery(secondRows, 'gratitude')).toEqual([
      ['repeat', ''],
      ['', 'tie'],
    ]);
    // zaynab's envy round, sent again: the round (changed) holds the second, which counts; the first a repeat row of its own.
    expect(byQuery(secondRows, 'envy')).toEqual([
      ['repeat', 'model_b'],
      ['', 'tie'],
    ]);
    expect(byQuery(secondRows, 'hope')).toEqual([['', 'model_a']]);
    expect(secondRows).toHaveLength(6);
    expect(jsonRows((await exportedWith(db, 'jsonl', { after: second.cursor })).text)).toEqual([]);

    // Joined by round_id, the newest revision of each: the full export, row for row.
    const joined = new Map<number, ExportRow>();
    for (const row of [...firstRows, ...secondRows]) {
      const seen = joined.get(row.round_id);
      expect(seen?.revision === row.revision).toBe(false); // never the same revision twice
      if (!seen || seen.revision < row.revision) joined.set(row.round_id, row);
    }
    const full = jsonRows((await exportedWith(db, 'jsonl', {})).text);
    const byId = (rows: ExportRow[]) => [...rows].sort((a, b) => a.round_id - b.round_id);
    expect(byId([...joined.values()])).toEqual(byId(full));
    expect(full).toHaveLength(6);
    // And as CSV: the same rows, the cursor the same.
    const csv = await exportedWith(db, 'csv', { after: first.cursor });
    expect(parseCsv(csv.text).slice(1).map((r) => r.slice(0, 2).map(Number))).toEqual(secondRows.map((r) => [r.round_id, r.revision]));
    expect(csv.cursor).toBe(second.cursor);
  });

  it('escapes a formula in a CSV cell, and exports it as sent in JSON', async () => {
    const db = test.db;
    const before = (await exportedWith(db, 'jsonl', {})).cursor;
    const id = randomUUID();
    await saveFeedback(
      db,
      'mallory',
      [
        vote(id, 'A', '@cmd', '👍', '=HYPERLINK("http://evil.example","x")', 'p1', 'shown', '-2+3\n@cmd'),
        vote(id, 'B', '-2+3', '👎', '=HYPERLINK("http://evil.example","x")', 'p2', 'shown', '-2+3\n@cmd'),
      ],
      at(10),
    );
    const csv = parseCsv((await exportedWith(db, 'csv', { after: before })).text);
    expect(csv).toHaveLength(2);
    const record = Object.fromEntries(EXPORT_FIELDS.map((field, i) => [field, csv[1]![i]]));
    expect(record).toMatchObject({ query: `'=HYPERLINK("http://evil.example","x")`, model_a: "'@cmd", model_b: "'-2+3" });
    const [json] = jsonRows((await exportedWith(db, 'jsonl', { after: before })).text);
    expect(json).toMatchObject({ query: '=HYPERLINK("http://evil.example","x")', model_a: '@cmd', model_b: '-2+3' });
  });

  it('forgets a reader’s exported rows with their votes, at once', async () => {
    const db = test.db;
    await exportedWith(db, 'jsonl', {});
    const rowsOf = async (author: string) => Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM export_rows WHERE author = $1', [author]))[0]!.n);
    expect(await rowsOf('mallory')).toBe(1);
    await deleteFeedbackOf(db, 'mallory', BOUND);
    expect(await rowsOf('mallory')).toBe(0);
    expect(await rowsOf('fatima')).toBeGreaterThan(0);
    expect(JSON.stringify(jsonRows((await exportedWith(db, 'jsonl', {})).text))).not.toContain('HYPERLINK');
  });

});

describe.runIf(STORES.includes('postgres'))('npm run votes -- export --after while votes commit out of order, on PostgreSQL', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await openTestDb('postgres');
  });
  afterAll(() => test.drop());
  const at = (minutes: number) => new Date(DAY + minutes * 60_000);

  it('misses no vote committed after an export began, even with an earlier id', async () => {
    const db = test.db;
    const before = (await exportedWith(db, 'jsonl', {})).cursor;
    // A vote's transaction is open (its id taken) while another commits and an export runs.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const slow = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO feedback (author, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction,
                                            confidence_score, question_id, passage_id, verdict)
                      VALUES ('late', 'Ustaz', 'late', 'late question', 'p', 'LSA', 'A', '👍', 0.5, 'q', 'p', 'shown')`);
      inserted();
      await held;
    });
    await insertedYet;
    await saveAndTally(db, 'early', [vote(undefined, 'A', 'LSA', '👍', 'early question', 'p')], at(20), BOUND);
    const during = await exportedWith(db, 'jsonl', { after: before });
    expect(jsonRows(during.text).map((r) => r.query)).toEqual(['early question']);
    commit();
    await slow;
    const after = await exportedWith(db, 'jsonl', { after: during.cursor });
    expect(jsonRows(after.text).map((r) => r.query)).toEqual(['late question']);
  });
});

describe('npm run votes', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'votes-cli-'));
    const db = await openEmbeddedDb(path.join(dataDir, 'pgdata'));
    await migrate(db);
    await storeHistory(db);
    await db.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  async function votes(args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/cli/votes.ts', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ARENA_DAILY_ROUNDS: String(BOUND) },
        maxBuffer: 64 * 1024 * 1024,
      });
      return { code: 0, out: stdout, err: stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout, err: e.stderr };
    }
  }

  it.each([
    [[], /^Usage: npm run votes -- export/],
    [['export'], /^export needs --format jsonl or --format csv\./],
    [['export', '--format', 'xml'], /^--format must be jsonl or csv \(got "xml"\)\./],
    [['export', '--format', 'csv', '--since', 'last week'], /^--since must be an ISO 8601 time with its zone: it must be an ISO 8601 time with a zone, such as 2026-11-23T09:00:00Z \(got "last week"\)\./],
    [['export', '--format', 'csv', '--since', '2026-13-45T00:00:00Z'], /^--since must be an ISO 8601 time with its zone: there is no month 13/],
    [['export', '--format', 'csv', '--since', '2026-02-31T00:00:00Z'], /^--since must be an ISO 8601 time with its zone: there is no day 31 in month 02 of 2026/],
    [['export', '--format', 'csv', '--since', '2026-11-23T09:00:00'], /^--since must be an ISO 8601 time with its zone: it needs a time and a zone/],
    [['export', '--format', 'csv', '--since', '2026-11-23'], /^--since must be an ISO 8601 time with its zone: it needs a time and a zone/],
    [['export', '--format', 'csv', '--since', '0000-01-01T00:00:00Z'], /^--since must be an ISO 8601 time with its zone: there is no year 0/],
    [['export', '--format', 'csv', '--after', 'yesterday'], /^--after must be the cursor an export ended with, a whole number \(got "yesterday"\)\./],
    [['export', '--format', 'csv', '--colour'], /^Unknown option '--colour'/],
    [['import', '--format', 'csv'], /^Unknown command "import"\./],
    [['export', 'now', '--format', 'csv'], /^"export" takes no arguments; it was given "now"\./],
  ])('refuses %j with a usage message, exit 2, and writes no rows', async (args, message) => {
    const result = await votes(args);
    expect(result).toMatchObject({ code: 2, out: '' });
    expect(result.err).toMatch(message);
    expect(result.err).toContain('Usage: npm run votes -- export --format jsonl|csv [--after CURSOR] [--since TIME]');
  }, 60_000);

  it('exports from the embedded store it opens itself, and through the server while one holds it', async () => {
    const alone = await votes(['export', '--format', 'jsonl', '--since', '2026-11-23T00:00:00Z']);
    expect(alone.code).toBe(0);
    // It ends by saying its cursor; after it, nothing is new.
    const cursor = /^cursor: (\d+)$/m.exec(alone.err)?.[1];
    expect(Number(cursor)).toBeGreaterThan(0);
    const nothingNew = await votes(['export', '--format', 'jsonl', '--after', cursor!]);
    expect(nothingNew).toMatchObject({ code: 0, out: '' });
    expect(nothingNew.err).toContain(`cursor: ${cursor}`);
    const rows = alone.out.trimEnd().split('\n').map((line) => JSON.parse(line) as ExportRow);
    expect(rows).toHaveLength(11);
    expect(rows.filter((r) => r.counted)).toHaveLength(3);
    // A server holding the database (its lock and its admin socket): the CLI reads the export through it.
    const db = await openEmbeddedDb(path.join(dataDir, 'pgdata'));
    const admin = await listenForAdmin(db, dataDir, createLogger('silent'), { dailyRoundBound: BOUND });
    try {
      const through = await votes(['export', '--format', 'csv', '--since', '2026-11-24T00:00:00Z']);
      expect(through.code).toBe(0);
      const [header, ...records] = parseCsv(through.out);
      expect(header).toEqual(EXPORT_FIELDS);
      expect(records).toHaveLength(1);
      expect(records[0]![EXPORT_FIELDS.indexOf('judge')]).toBe(rows.at(-1)!.judge);
      const whole = await votes(['export', '--format', 'jsonl']);
      expect(whole.out).toBe(alone.out);
      expect(whole.err).toContain(`cursor: ${cursor}`);
      expect((await votes(['export', '--format', 'jsonl', '--after', cursor!])).out).toBe('');
      // The server checks the time as the CLI does: a sentence, never a 500.
      for (const since of ['0000-01-01T00:00:00Z', '2026-02-31T00:00:00Z', '2026-11-23T09:00']) {
        const answer = await askSocket(path.join(dataDir, 'admin.sock'), `/votes/export?format=csv&since=${encodeURIComponent(since)}`);
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({ detail: expect.stringMatching(/^since: /) });
      }
      const badCursor = await askSocket(path.join(dataDir, 'admin.sock'), '/votes/export?format=csv&after=-1');
      expect(badCursor.status).toBe(400);
    } finally {
      await admin?.close();
      await db.close();
    }
  }, 120_000);
});
