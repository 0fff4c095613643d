/**
 * Feedback's public entry: what other features may use of it (docs/client.md). Insights sends
 * the votes still waiting before it counts them; the search page puts the vote buttons under each
 * result it shows and keeps the round's votes. Insights and the search page load these anyway.
 */
export { flushOutbox } from './flush-outbox.ts';
export { useFeedback, type VoteRound } from './use-feedback.ts';
export { VotePanel } from './components/VotePanel.tsx';
export { queueSavedChange, waitingSavedIds } from './queue-saved.ts';
export type { SavedChange } from './saved-change.ts';
