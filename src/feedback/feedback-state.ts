import type { ResultLabel } from '../search/types.ts';
import type { Reaction } from './reactions.ts';

/**
 * Feedback per label: none, then success (with the reaction; `queued` when it waits in the
 * outbox to be sent) or error. Only one submission runs at a time.
 */
export type LabelFeedback =
  | { status: 'none' }
  | { status: 'sending'; reaction: Reaction }
  | { status: 'success'; reaction: Reaction; queued: boolean }
  | { status: 'error'; message: string };

export interface FeedbackState {
  byLabel: Record<ResultLabel, LabelFeedback>;
  submitting: ResultLabel | null;
}

export type FeedbackEvent =
  | { type: 'submit'; label: ResultLabel; reaction: Reaction }
  | { type: 'saved'; label: ResultLabel; reaction: Reaction; queued: boolean }
  | { type: 'failed'; label: ResultLabel; message: string }
  | { type: 'reset' };

export const INITIAL_FEEDBACK: FeedbackState = {
  byLabel: { A: { status: 'none' }, B: { status: 'none' } },
  submitting: null,
};

/** Whether the label's reaction buttons may be pressed now. */
export function canSubmit(state: FeedbackState, label: ResultLabel): boolean {
  return state.submitting === null && state.byLabel[label].status === 'none';
}

export function feedbackReducer(state: FeedbackState, event: FeedbackEvent): FeedbackState {
  switch (event.type) {
    case 'submit':
      if (!canSubmit(state, event.label)) return state;
      return {
        byLabel: { ...state.byLabel, [event.label]: { status: 'sending', reaction: event.reaction } },
        submitting: event.label,
      };
    case 'saved':
      if (state.submitting !== event.label) return state;
      return {
        byLabel: { ...state.byLabel, [event.label]: { status: 'success', reaction: event.reaction, queued: event.queued } },
        submitting: null,
      };
    case 'failed':
      if (state.submitting !== event.label) return state;
      return { byLabel: { ...state.byLabel, [event.label]: { status: 'error', message: event.message } }, submitting: null };
    case 'reset':
      return INITIAL_FEEDBACK;
  }
}

export function thankYouMessage(reaction: Reaction): string {
  return `Thank you for your feedback! You selected ${reaction}`;
}
