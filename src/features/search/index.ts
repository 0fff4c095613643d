/**
 * Search's public entry: what other features may use of it (docs/client.md). Feedback votes on
 * the round a search made, and marks in each result the sentence nearest the question.
 */
export type { AbRound } from './ab-round.ts';
export { highlightParts } from './highlight.ts';
