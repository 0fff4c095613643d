import { createHmac } from 'node:crypto';
import type { Writable } from 'node:stream';
import { LruCache } from '../../platform/caches/lru-cache.ts';
import { tallyPending } from './sql/tallies.ts';
import { arenaSecret } from './sql/arena-secrets.ts';
import type { Db } from '../../platform/store/db.ts';
import { exportRecords, type ExportRecord } from './sql/vote-rows.ts';
import { CSV_HEADER, csvRow, jsonLine, winnerOf, type ExportFormat, type ExportRow } from './export-format.ts';

export interface ExportOptions {
  format: ExportFormat;
  /** Only rounds whose last vote came at or after this time. */
  since?: Date;
  /** A cursor an earlier export ended with: only the rows new or changed since, each once. */
  after?: string;
  /** Told the cursor this export ends with, before its first row (the CLI prints it at the end). */
  onCursor?: (cursor: string) => void | Promise<void>;
  /**
   * The server's bound (ARENA_DAILY_ROUNDS), for the votes still waiting for the tallier, which the
   * export tallies first. `counted` is what the tallies decided as the votes came (docs/arena.md, rule 3).
   */
  dailyRoundBound: number;
}

/**
 * How the export names a reader: an HMAC-SHA256 of the username under the store's 'judge'
 * secret (32 hex digits), the same reader the same judge in every export, never the name.
 */
export function judgeOf(secret: Buffer, author: string): string {
  return createHmac('sha256', secret).update(author, 'utf8').digest('hex').slice(0, 32);
}

function rowOf(record: ExportRecord, judge: string): ExportRow {
  return {
    round_id: record.round_id,
    revision: record.revision,
    question_id: record.question_id,
    model_a: record.model_a,
    model_b: record.model_b,
    winner: winnerOf(record.reaction_a, record.reaction_b),
    judge,
    user_type: record.user_type,
    tstamp: record.tstamp.getTime() / 1000,
    query: record.query,
    passage_a: record.passage_a,
    passage_b: record.passage_b,
    passage_set: record.passage_set ?? '',
    text_a: record.text_a,
    text_b: record.text_b,
    reaction_a: record.reaction_a,
    reaction_b: record.reaction_b,
    counted: record.status === null,
    left_out_reason: record.status ?? '',
    kind: record.kind,
  };
}

/** Resolves once `out` takes more, and fails if it closes first (the reader went away). */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      out.off('drain', onDrain).off('close', onClose).off('error', done);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('the export’s reader went away'));
    out.on('drain', onDrain).on('close', onClose).on('error', done);
  });
}

/**
 * Writes every vote, counted and left out, to `out` as JSON lines or CSV (one row per round, a
 * lone vote a row of its own), a page of rows per write, waiting whenever `out` has enough: the
 * export holds one page, whatever the number of votes. Returns the rows written and the cursor to
 * ask `after` next time.
 */
export async function writeVoteExport(db: Db, options: ExportOptions, out: Writable): Promise<{ rows: number; cursor: string }> {
  // Every vote saved so far has its round's verdict in the tallies (tallier.ts).
  await tallyPending(db, options.dailyRoundBound);
  const secret = await arenaSecret(db, 'judge');
  const judges = new LruCache<string, string>(10_000);
  const format = options.format === 'csv' ? csvRow : jsonLine;
  let rows = 0;
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await drained(out);
  };
  let cursor = '0';
  const onCursor = async (value: string) => {
    cursor = value;
    await options.onCursor?.(value);
    if (options.format === 'csv') await write(CSV_HEADER);
  };
  await exportRecords(db, options, onCursor, async (records) => {
    let chunk = '';
    for (const record of records) {
      let judge = judges.get(record.author);
      if (judge === undefined) judges.set(record.author, (judge = judgeOf(secret, record.author)));
      chunk += format(rowOf(record, judge));
    }
    rows += records.length;
    await write(chunk);
  });
  return { rows, cursor };
}
