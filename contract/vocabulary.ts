/**
 * The words the API and the app share: who a reader is, which card, and how it helped. Plain
 * values with no dependency, so the browser bundle takes them without the schema library.
 */
export const USER_TYPES = ['Enthusiast', 'Ustaz'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const RESULT_LABELS = ['A', 'B'] as const;
export type ResultLabel = (typeof RESULT_LABELS)[number];

/** The three reactions, in the order a result card shows them, with what each means to the reader. */
export const REACTIONS = [
  { reaction: '👍', label: 'Good result' },
  { reaction: '🤷', label: 'Somewhat relevant' },
  { reaction: '👎', label: 'Not relevant' },
] as const;
export type Reaction = (typeof REACTIONS)[number]['reaction'];
export const REACTION_SYMBOLS: readonly Reaction[] = REACTIONS.map((r) => r.reaction);

/** The most neighbours either side of a passage a reading may ask for: more than any chapter of the book holds. */
export const CONTEXT_MAX_RADIUS = 50;

/** The longest question a search takes, in characters. */
export const MAX_QUERY_LENGTH = 1000;

/**
 * Why a vote is not counted, as its check decided when it was saved (server/modules/arena/vote-check.ts
 * says what each means): every verdict but `shown`.
 */
export const VOTE_REASONS = ['no-receipt', 'forged', 'expired', 'other-reader', 'not-drawn', 'not-first', 'not-shown', 'unknown-model', 'unchecked'] as const;
export type VoteReason = (typeof VOTE_REASONS)[number];

/** Why a round is left out of the arena's comparison (null: it counts; docs/arena.md). */
export const ROUND_LEFT_OUT = ['one-sided', 'same-passage', 'repeat', 'over-daily-bound', ...VOTE_REASONS] as const;
export type RoundLeftOut = (typeof ROUND_LEFT_OUT)[number];

/** Why a vote is left out of the reaction counts (null: it counts). */
export const VOTE_LEFT_OUT = ['repeat', ...VOTE_REASONS] as const;
export type VoteLeftOut = (typeof VOTE_LEFT_OUT)[number];

/** What the service made of a vote as it was saved: `shown` (it may count) or why not. */
export const VERDICTS = ['shown', ...VOTE_REASONS] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The longest note a reader may keep with a saved passage, in characters. */
export const MAX_SAVED_NOTE_LENGTH = 1000;
/** A feedback item's `receipt` for a round the device drew and answered itself, offline (docs/arena.md). */
export const DEVICE_RECEIPT = 'device';
