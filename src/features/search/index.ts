/**
 * Search's public entry: what other features may use of it (docs/client.md). Feedback votes on
 * the round a search made (one passage both models chose is rated once, for both), and marks in
 * each result the sentence nearest the question.
 */
export type { AbRound } from './ab-round.ts';
export { sharesOnePassage } from './choose-ab-pair.ts';
export { highlightParts } from './highlight.ts';
