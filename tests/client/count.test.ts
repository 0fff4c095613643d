import { describe, expect, it } from 'vitest';
import { count } from '../../src/lib/count.ts';

describe('a count with its noun, as the outbox bar and the insights page write it', () => {
  it('is singular for one only', () => {
    expect(count(1, 'search', 'searches')).toBe('1 search');
    expect(count(0, 'search', 'searches')).toBe('0 searches');
    expect(count(2, 'vote is', 'votes are')).toBe('2 votes are');
  });
});
