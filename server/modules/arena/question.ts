import { createHash } from 'node:crypto';

/**
 * A question as the arena tells questions apart: trimmed, every run of whitespace one space,
 * lower-cased. "  Patience\tand  GRATITUDE " and "patience and gratitude" are one question.
 */
export function normaliseQuery(query: string): string {
  return query.trim().replace(/\s+/gu, ' ').toLowerCase();
}

/**
 * A question's stable id: the first 32 hex digits (128 bits) of the SHA-256 of its normalised
 * text, the same for the same question in every export and on every instance.
 */
export function questionId(query: string): string {
  return createHash('sha256').update(normaliseQuery(query), 'utf8').digest('hex').slice(0, 32);
}
