import { describe, expect, it } from 'vitest';
import { armWords } from '../../src/lib/arms.ts';

describe('the search methods in a reader’s words', () => {
  it('names every arm of the pool plainly, from its technical id', () => {
    const ids = [
      'LSA tfidf-svd-96+lex-256+glove-100-wordnet+thesaurus+gloss',
      'SIF ppmi-word-vectors-150+glove-100-wordnet+thesaurus+gloss',
      'BM25 minisearch',
      'BGE bge-small-en-v1.5',
      'UAE UAE-Large-V1',
    ];
    const words = ids.map(armWords);
    expect(words.map((w) => w.name)).toEqual(['Shared themes', 'Words in context', 'Matches your words', 'Small trained model', 'Large trained model']);
    for (const w of words) {
      expect(w.known).toBe(true);
      expect(w.does.length).toBeGreaterThan(20);
      // Short enough for a phone's line; no id, no jargon.
      expect(w.name.length).toBeLessThanOrEqual(20);
      expect(`${w.name} ${w.does}`).not.toMatch(/LSA|SIF|BM25|BGE|UAE|tfidf|vector|embedding|cosine/i);
    }
  });

  it('names a method it does not know by its family, and says nothing of what it does', () => {
    expect(armWords('XYZ something-new-1')).toEqual({ name: 'XYZ', does: '', known: false });
  });
});
