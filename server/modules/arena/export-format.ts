import { REACTION_RANK } from './stats/rounds.ts';
import type { Reaction } from '../../../contract/vocabulary.ts';

/**
 * One row of `npm run votes -- export`: a round (a reader's A and B votes), or a lone vote, with
 * fields named as public arena datasets name them (docs/arena.md describes each).
 */
export interface ExportRow {
  /** The row's stable id: a round keeps it in every export, through its revisions. */
  round_id: number;
  /** The row's revision: a row that changes (a lone vote then paired, a verdict checked) is exported again with a higher one. */
  revision: number;
  question_id: string | null;
  model_a: string | null;
  model_b: string | null;
  winner: Winner | '';
  judge: string;
  user_type: string;
  /** Unix time in seconds (milliseconds as the fraction) of the round's last vote. */
  tstamp: number;
  query: string;
  passage_a: string | null;
  passage_b: string | null;
  /** Which cut of the book into passages `passage_a` and `passage_b` name: 'v1' (corpus/passages-v1.json) or a later passage version. */
  passage_set: string;
  /** The texts the A and B votes were cast on, as shown. */
  text_a: string | null;
  text_b: string | null;
  reaction_a: Reaction | null;
  reaction_b: Reaction | null;
  counted: boolean;
  left_out_reason: string;
  /** `round`: a round /api/stats counts (compared, or left out for `left_out_reason`); `vote`: a single vote it counts only among the votes left out. */
  kind: 'round' | 'vote';
}

export const EXPORT_FIELDS: ReadonlyArray<keyof ExportRow> = [
  'round_id',
  'revision',
  'question_id',
  'model_a',
  'model_b',
  'winner',
  'judge',
  'user_type',
  'tstamp',
  'query',
  'passage_a',
  'passage_b',
  'passage_set',
  'text_a',
  'text_b',
  'reaction_a',
  'reaction_b',
  'counted',
  'left_out_reason',
  'kind',
];

export type Winner = 'model_a' | 'model_b' | 'tie' | 'tie (bothbad)';

/** The round's winner by its reactions (👍 > 🤷 > 👎); two 👎 are a tie where both were bad. Empty for a lone vote. */
export function winnerOf(a: Reaction | null, b: Reaction | null): Winner | '' {
  if (!a || !b) return '';
  const difference = REACTION_RANK[a] - REACTION_RANK[b];
  if (difference > 0) return 'model_a';
  if (difference < 0) return 'model_b';
  return a === '👎' ? 'tie (bothbad)' : 'tie';
}

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One JSON object per line, its fields in EXPORT_FIELDS' order. */
export function jsonLine(row: ExportRow): string {
  return `${JSON.stringify(row, EXPORT_FIELDS as string[])}\n`;
}

/** What a spreadsheet may read as a formula at a cell's start (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV field (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote or a line
 * break. Text starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a single quote in
 * front (OWASP's rule), so that a spreadsheet shows it instead of running it as a formula.
 */
export function csvField(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV record (RFC 4180), ended by CRLF. */
export function csvLine(values: ReadonlyArray<string | number | boolean | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The CSV header: the field names. */
export const CSV_HEADER = csvLine(EXPORT_FIELDS);

export function csvRow(row: ExportRow): string {
  return csvLine(EXPORT_FIELDS.map((field) => row[field]));
}

/**
 * `--since`: a full ISO 8601 time with its zone (`2026-11-23T09:00:00Z`,
 * `2026-11-23T10:00+01:00`), every field in range (no 31 February, no year 0). Anything else is
 * a sentence saying why: a day alone or a time without a zone would be read in someone's zone.
 */
export function parseExportTime(text: string): Date | string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!match) {
    if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(text)) return `it needs a time and a zone, such as ${text.slice(0, 10)}T00:00:00Z`;
    return 'it must be an ISO 8601 time with a zone, such as 2026-11-23T09:00:00Z';
  }
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone, sign, zh = '0', zm = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 1 : 0);
  if (year < 1) return 'there is no year 0';
  if (month < 1 || month > 12) return `there is no month ${mo}`;
  if (day < 1 || day > daysInMonth) return `there is no day ${d} in month ${mo} of ${y}`;
  if (hour > 23 || minute > 59 || second > 59) return `${h}:${mi}:${s.padStart(2, '0')} is no time of day`;
  if (zone !== 'Z' && (Number(zh) > 23 || Number(zm) > 59)) return `${zone} is no zone offset`;
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, Math.floor(Number(`0${fraction}`) * 1000));
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm));
  return new Date(at.getTime() - offset * 60_000);
}

/** `--after`: a cursor an export ended with, a whole number. */
export function parseExportCursor(text: string): string | null {
  return /^(0|[1-9]\d{0,17})$/.test(text) ? text : null;
}
