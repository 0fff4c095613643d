import { REACTION_RANK } from './stats/rounds.ts';
import type { Reaction } from '../../../contract/vocabulary.ts';

/**
 * One row of `npm run votes -- export`: a round (a reader's A and B votes), or a lone vote, with
 * fields named as public arena datasets name them (docs/arena.md describes each).
 */
export interface ExportRow {
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
  reaction_a: Reaction | null;
  reaction_b: Reaction | null;
  counted: boolean;
  left_out_reason: string;
}

export const EXPORT_FIELDS: ReadonlyArray<keyof ExportRow> = [
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
  'reaction_a',
  'reaction_b',
  'counted',
  'left_out_reason',
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

/** A CSV field (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote or a line break. */
export function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
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
