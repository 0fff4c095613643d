import { describe, expect, it } from 'vitest';
import { highlightParts } from '../../src/features/search/highlight.ts';

describe('highlightParts', () => {
  const text = 'First sentence. The best one here. Last.';

  it('splits the passage around the marked sentence', () => {
    expect(highlightParts(text, { start: 16, end: 34 })).toEqual({ before: 'First sentence. ', marked: 'The best one here.', after: ' Last.' });
  });

  it('shows the text plain when there is no mark, or one that does not fit it', () => {
    expect(highlightParts(text, undefined)).toBeNull();
    for (const bad of [{ start: 5, end: 5 }, { start: -1, end: 4 }, { start: 10, end: 999 }, { start: 1.5, end: 4 }]) {
      expect(highlightParts(text, bad)).toBeNull();
    }
  });
});
