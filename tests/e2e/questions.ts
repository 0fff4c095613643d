/**
 * Questions whose LSA, SIF and BM25 first passages all differ, so that whichever pair the arena
 * draws, the results show Result A and Result B (a pair meeting on one passage shows one card).
 * Which questions do depends on the book's glosses: tests/server/e2e-questions.test.ts checks
 * these on the book as shipped, so that a change which breaks them fails there, saying why, and
 * not as a browser waiting for a card that never comes.
 */
export const QUESTION_OF_TWO_CARDS = 'Why did God create man?';

/** Every question the end-to-end files ask that must show two cards (checked as the one above is). */
export const QUESTIONS_OF_TWO_CARDS = [
  QUESTION_OF_TWO_CARDS,
  'What are the qualities of animals?',
  'What are angels?',
  'How should a wise man spend his days?',
  'Why do men forget God?',
  'Why does God allow suffering?',
  'What is the soul like?',
  'What is remembrance of God?',
];

/**
 * Questions asked of the device with the server away, then voted on A or B
 * (offline-search.test.ts): the device draws from the pack's models, LSA and SIF, whose first
 * passages must differ.
 */
export const DEVICE_QUESTIONS_OF_TWO_CARDS = {
  onA: 'What does Ghazali say about kings?',
  onB: 'What happens to envy in the next world?',
};

/** A question every model of the pool answers with the same first passage: one card, whatever the draw. */
export const QUESTION_OF_ONE_CARD = 'Why is self-knowledge the key?';

/** How many trials the offline suite's random trials run. */
export const TRIALS = 56;

/** A random trial's question: each its own (a vote is known by it), each showing two cards. */
export const trialQuestion = (trial: number): string => `trial ${trial}: ${QUESTION_OF_TWO_CARDS}`;
