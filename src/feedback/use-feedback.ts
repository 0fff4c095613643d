import { useCallback, useLayoutEffect, useReducer, useRef } from 'react';
import type { AbRound } from '../search/ab-round.ts';
import type { LabelledResult } from '../search/types.ts';
import { useSession } from '../stores/session-store.ts';
import { buildFeedbackItem } from './feedback-item.ts';
import { submitVote } from './submit-vote.ts';
import { canSubmit, feedbackReducer, INITIAL_FEEDBACK, type FeedbackEvent } from './feedback-state.ts';
import type { Reaction } from './reactions.ts';

/** Per-label feedback for one round (one search's A and B). */
export function useFeedback(round: AbRound) {
  const [state, dispatch] = useReducer(feedbackReducer, INITIAL_FEEDBACK);
  // The state as of the last event, ahead of the next render (every event goes through `apply`):
  // two clicks handled in one task, before React renders again, must not both find the buttons free.
  const latest = useRef(INITIAL_FEEDBACK);
  const currentRound = useRef(round.id);
  // Before the new round is painted, so that no press can meet the old round's state.
  useLayoutEffect(() => {
    currentRound.current = round.id;
    latest.current = INITIAL_FEEDBACK;
    dispatch({ type: 'reset' });
  }, [round.id]);

  const react = useCallback(
    async (result: LabelledResult, reaction: Reaction) => {
      const label = result.resultLabel;
      /** Applies an event of this round (false: the round has changed since). */
      const apply = (event: FeedbackEvent): boolean => {
        if (currentRound.current !== round.id) return false;
        latest.current = feedbackReducer(latest.current, event);
        dispatch(event);
        return true;
      };
      if (!canSubmit(latest.current, label) || !apply({ type: 'submit', label, reaction })) return;
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
        if (outcome.kind === 'rejected') {
          apply({ type: 'failed', label, message: outcome.reason || 'Failed to save feedback' });
          return;
        }
        apply({ type: 'saved', label, reaction, queued: outcome.kind === 'queued' });
        if (outcome.kind === 'queued') {
          // The vote is safe in the outbox whatever this says; a failure to read how it ended shows nothing new.
          outcome.later.then((settled) => apply({ type: 'settled', label, outcome: settled })).catch(() => undefined);
        }
      } catch {
        // The vote could not even be written to the outbox (storage blocked): say so.
        apply({ type: 'failed', label, message: 'Failed to save feedback' });
      }
    },
    [round.id, round.query],
  );

  return { state, react };
}
