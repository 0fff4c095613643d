import { describe, expect, it } from 'vitest';
import { passageIdOf } from '../../src/features/reading/passage-id.ts';

describe('the passage a /read/ link names', () => {
  it('is the id itself', () => {
    expect(passageIdOf('ch8-19')).toBe('ch8-19');
    expect(passageIdOf('editorial-note-1')).toBe('editorial-note-1');
  });

  it('leaves out what a link copied from a sentence brings along', () => {
    for (const segment of ['ch8-19.', 'ch8-19,', 'ch8-19).', 'ch8-19%E2%80%9D', 'ch8-19!?']) expect(passageIdOf(segment), segment).toBe('ch8-19');
  });

  it('undoes escapes once, as the server reads the path, and keeps a segment that does not decode as it is', () => {
    expect(passageIdOf('ch8-19%2F..')).toBe('ch8-19/');
    expect(passageIdOf('%FF')).toBe('%FF');
  });
});
