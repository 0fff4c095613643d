/**
 * Feedback's public entry: what other features may use of it (docs/client.md). Insights sends
 * the votes still waiting before it counts them. Kept to what the app loads up front anyway:
 * whatever imports this file loads all it lists.
 */
export { flushOutbox } from './flush-outbox.ts';
