import { describe, expect, it } from 'vitest';
import { buildFeedbackItem } from '../../src/features/feedback/feedback-item.ts';
import { canSubmit, feedbackReducer, INITIAL_FEEDBACK, thankYouMessage } from '../../src/features/feedback/feedback-state.ts';

describe('feedback state per label', () => {
  it('goes from none to success with the reaction, and then takes no more', () => {
    let s = feedbackReducer(INITIAL_FEEDBACK, { type: 'submit', label: 'A', reaction: '👍' });
    expect(s.byLabel.A).toEqual({ status: 'sending', reaction: '👍' });
    s = feedbackReducer(s, { type: 'saved', label: 'A', reaction: '👍', queued: false });
    expect(s.byLabel.A).toEqual({ status: 'success', reaction: '👍', queued: false });
    expect(canSubmit(s, 'A')).toBe(false);
    expect(feedbackReducer(s, { type: 'submit', label: 'A', reaction: '👎' })).toBe(s);
    expect(canSubmit(s, 'B')).toBe(true);
  });

  it('goes from none to error with the message', () => {
    let s = feedbackReducer(INITIAL_FEEDBACK, { type: 'submit', label: 'B', reaction: '🤷' });
    s = feedbackReducer(s, { type: 'failed', label: 'B', message: 'Failed to save feedback' });
    expect(s.byLabel.B).toEqual({ status: 'error', message: 'Failed to save feedback' });
    expect(s.submitting).toBeNull();
  });

  it('updates a vote acknowledged as queued once its send ends: sent, or refused', () => {
    const queued = feedbackReducer(feedbackReducer(INITIAL_FEEDBACK, { type: 'submit', label: 'A', reaction: '👍' }), {
      type: 'saved',
      label: 'A',
      reaction: '👍',
      queued: true,
    });
    expect(feedbackReducer(queued, { type: 'settled', label: 'A', outcome: { kind: 'delivered' } }).byLabel.A).toEqual({
      status: 'success',
      reaction: '👍',
      queued: false,
    });
    expect(feedbackReducer(queued, { type: 'settled', label: 'A', outcome: { kind: 'queued' } })).toBe(queued);
    expect(feedbackReducer(queued, { type: 'settled', label: 'A', outcome: { kind: 'rejected', reason: 'Too long' } }).byLabel.A).toEqual({
      status: 'error',
      message: 'Too long',
    });
    // Nothing to settle on a label that was never queued.
    expect(feedbackReducer(INITIAL_FEEDBACK, { type: 'settled', label: 'B', outcome: { kind: 'delivered' } })).toBe(INITIAL_FEEDBACK);
  });

  it('runs one submission at a time across both labels', () => {
    const s = feedbackReducer(INITIAL_FEEDBACK, { type: 'submit', label: 'A', reaction: '👍' });
    expect(canSubmit(s, 'B')).toBe(false);
    expect(feedbackReducer(s, { type: 'submit', label: 'B', reaction: '👎' })).toBe(s);
  });

  it('starts over for a new round', () => {
    const s = feedbackReducer(INITIAL_FEEDBACK, { type: 'submit', label: 'A', reaction: '👍' });
    expect(feedbackReducer(s, { type: 'reset' })).toEqual(INITIAL_FEEDBACK);
  });

  it('thanks the reader in the spec’s words', () => {
    expect(thankYouMessage('👍')).toBe('Thank you for your feedback! You selected Good result');
  });
});

describe('buildFeedbackItem', () => {
  const base = { userType: 'Ustaz' as const, query: 'patience', reaction: '🤷' as const, roundId: 'r', clientId: 'c' };

  it('carries the spec’s fields plus client_id and round_id', () => {
    const item = buildFeedbackItem({
      ...base,
      username: 'reader',
      result: { text: 'Patience is half of faith.', model_type: 'BGE x', similarity: 0.8, resultLabel: 'B' },
    });
    expect(item).toEqual({
      user_type: 'Ustaz',
      username: 'reader',
      query: 'patience',
      retrieved_text: 'Patience is half of faith.',
      model_type: 'BGE x',
      result_label: 'B',
      reaction: '🤷',
      confidence_score: 0.8,
      client_id: 'c',
      round_id: 'r',
    });
  });

  it('falls back to anonymous, content, unknown and 0', () => {
    const item = buildFeedbackItem({ ...base, username: null, result: { content: 'From content.', resultLabel: 'A' } });
    expect(item).toMatchObject({ username: 'anonymous', retrieved_text: 'From content.', model_type: 'unknown', confidence_score: 0 });
  });
});
