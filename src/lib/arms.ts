/**
 * The search methods the arena compares (docs/arena-pool.md), in a reader's words. About and
 * Insights both name them from here, so a reader meets one name for one method everywhere. A
 * method's technical id (its `model_type`, e.g. "LSA tfidf-svd-96+…") begins with its family;
 * that is what the name is found by.
 */
export interface ArmWords {
  /** A short name, a few words, that fits a phone's line. */
  name: string;
  /** What it does, in one or two sentences. */
  does: string;
}

const ARMS: Record<string, ArmWords> = {
  LSA: {
    name: 'Shared themes',
    does: 'Looks for passages on the same themes as your question, and gives weight to the very words you used.',
  },
  SIF: {
    name: 'Words in context',
    does: 'Knows each word by the company it keeps in the book, and finds the passage whose words as a whole are closest to yours.',
  },
  BM25: {
    name: 'Matches your words',
    does: 'Finds the passages that use the words of your question, rare words counting most. It does not know that different words can mean the same thing.',
  },
  BGE: {
    name: 'Small trained model',
    does: 'A compact neural network, trained on a great deal of modern English to place texts that mean the same near each other.',
  },
  UAE: {
    name: 'Large trained model',
    does: 'A larger neural network of the same kind, slower, trained to tell close meanings apart.',
  },
};

/** The family a technical id begins with: "LSA tfidf-svd-96+…" → "LSA". */
export function armFamily(modelType: string): string {
  return modelType.trim().split(/\s+/, 1)[0] ?? '';
}

/**
 * A method's words for readers, from its technical id. A method this list does not know (a new
 * one, before it is added here) is named by its family, the id's first word, and says nothing of
 * what it does.
 */
export function armWords(modelType: string): ArmWords & { known: boolean } {
  const family = armFamily(modelType);
  const words = Object.hasOwn(ARMS, family) ? ARMS[family] : undefined;
  return words ? { ...words, known: true } : { name: family || modelType, does: '', known: false };
}
