import { useCallback, useEffect, useReducer } from 'react';
import type { AbRound } from '../search/ab-round.ts';
import type { LabelledResult } from '../search/types.ts';
import { useSession } from '../stores/session-store.ts';
import { buildFeedbackItem } from './feedback-item.ts';
import { submitVote } from './submit-vote.ts';
import { canSubmit, feedbackReducer, INITIAL_FEEDBACK } from './feedback-state.ts';
import type { Reaction } from './reactions.ts';

/** Per-label feedback for one round (one search's A and B). */
export function useFeedback(round: AbRound) {
  const [state, dispatch] = useReducer(feedbackReducer, INITIAL_FEEDBACK);
  useEffect(() => {
    dispatch({ type: 'reset' });
  }, [round.id]);

  const react = useCallback(
    async (result: LabelledResult, reaction: Reaction) => {
      const label = result.resultLabel;
      if (!canSubmit(state, label)) return;
      dispatch({ type: 'submit', label, reaction });
      const { user, userType } = useSession.getState();
      const item = buildFeedbackItem({
        userType,
        username: user,
        query: round.query,
        result,
        reaction,
        roundId: round.id,
        clientId: crypto.randomUUID(),
      });
      try {
        const outcome = await submitVote(item, user ?? 'anonymous');
        if (outcome.kind === 'rejected') dispatch({ type: 'failed', label, message: outcome.reason || 'Failed to save feedback' });
        else dispatch({ type: 'saved', label, reaction, queued: outcome.kind === 'queued' });
      } catch {
        // The vote could not even be written to the outbox (storage blocked): say so.
        dispatch({ type: 'failed', label, message: 'Failed to save feedback' });
      }
    },
    [state, round.id, round.query],
  );

  return { state, react };
}
