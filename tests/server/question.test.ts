// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { normaliseQuery, questionId } from '../../server/modules/arena/question.ts';

describe('a question as the arena tells questions apart', () => {
  it('is trimmed, its runs of whitespace one space, lower-cased', () => {
    expect(normaliseQuery('  Patience\tand \n GRATITUDE  ')).toBe('patience and gratitude');
    expect(normaliseQuery('\u00a0What is\u2003the SOUL?\u00a0')).toBe('what is the soul?');
  });

  it('keeps what tells questions apart: words, their order and punctuation', () => {
    expect(normaliseQuery('the soul of man')).not.toBe(normaliseQuery('man of the soul'));
    expect(normaliseQuery('patience?')).not.toBe(normaliseQuery('patience'));
  });

  it('has one stable id, 32 hex digits, for every spelling of it', () => {
    const id = questionId('What is the SOUL?');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(questionId('  what   is the soul? ')).toBe(id);
    expect(questionId('what is the heart?')).not.toBe(id);
    // The SHA-256 of the normalised text: the same in every export, on every instance.
    expect(questionId(' PATIENCE ')).toBe('96d61fe343ddf5e0d8d68b1d0b08b9af');
  });
});
