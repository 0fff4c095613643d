export type Reaction = '👍' | '🤷' | '👎';

/** The three reactions, in the order the card shows them, with what each means to the reader. */
export const REACTIONS: ReadonlyArray<{ reaction: Reaction; label: string }> = [
  { reaction: '👍', label: 'Good result' },
  { reaction: '🤷', label: 'Somewhat relevant' },
  { reaction: '👎', label: 'Not relevant' },
];
