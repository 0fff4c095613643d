import { useCallback, useEffect, useReducer } from 'react';
import { ApiError } from '../api/api-error.ts';
import { saveFeedback } from '../api/feedback-api.ts';
import type { LabelledResult } from '../search/types.ts';
import { useSession } from '../stores/session-store.ts';
import { buildFeedbackItem } from './feedback-item.ts';
import { canSubmit, feedbackReducer, INITIAL_FEEDBACK } from './feedback-state.ts';
import type { Reaction } from './reactions.ts';

/** Per-label feedback for one round (one search's A and B). */
export function useFeedback(round: { id: string; query: string; pair: LabelledResult[] }) {
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
        await saveFeedback([item]);
        dispatch({ type: 'saved', label, reaction, queued: false });
      } catch (error) {
        const message = error instanceof ApiError && error.message ? error.message : 'Failed to save feedback';
        dispatch({ type: 'failed', label, message });
      }
    },
    [state, round.id, round.query],
  );

  return { state, react };
}
