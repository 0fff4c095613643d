import type { ResultLabel } from '../../lib/search-result.ts';
import { REACTIONS, type Reaction } from '../../../contract/vocabulary.ts';
import type { SettledVote } from './outbox-rules.ts';

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
  /** A vote acknowledged as queued while its send went on: how that send ended. */
  | { type: 'settled'; label: ResultLabel; outcome: SettledVote }
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
    case 'settled': {
      const current = state.byLabel[event.label];
      if (current.status !== 'success' || !current.queued || event.outcome.kind === 'queued') return state;
      const next: LabelFeedback =
        event.outcome.kind === 'delivered'
          ? { ...current, queued: false }
          : { status: 'error', message: event.outcome.reason || 'Failed to save feedback' };
      return { ...state, byLabel: { ...state.byLabel, [event.label]: next } };
    }
    case 'reset':
      return INITIAL_FEEDBACK;
  }
}

/** A reaction in words, as the reader saw it on its button (the emoji is what is stored). */
export function reactionWords(reaction: Reaction): string {
  return REACTIONS.find((r) => r.reaction === reaction)?.label ?? reaction;
}

/** Said with the reaction's words, not its emoji: an emoji is an empty box where no font has it. */
export function thankYouMessage(reaction: Reaction): string {
  return `Thank you for your feedback! You selected ${reactionWords(reaction)}`;
}
