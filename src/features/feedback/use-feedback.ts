import { useCallback, useLayoutEffect } from 'react';
import { create } from 'zustand';
import type { LabelledResult } from '../../lib/search-result.ts';
import { useSession } from '../session/index.ts';
import { buildFeedbackItem } from './feedback-item.ts';
import { submitVotes } from './submit-vote.ts';
import { canSubmit, feedbackReducer, INITIAL_FEEDBACK, type FeedbackEvent, type FeedbackState } from './feedback-state.ts';
import type { Reaction } from '../../../contract/vocabulary.ts';

/**
 * The latest round's votes, outside any page: a reader who opens Insights and comes Back finds
 * them as they were, and a vote that settled meanwhile as it ended. Updated at once on every
 * event, ahead of React's next render: two clicks handled in one task, before it renders again,
 * must not both find the buttons free.
 */
const useRoundFeedback = create<{ roundId: string; state: FeedbackState }>(() => ({ roundId: '', state: INITIAL_FEEDBACK }));

/** The round a reader votes on: one search's question and its A and B, under the round's id. */
export interface VoteRound {
  id: string;
  query: string;
  pair: LabelledResult[];
}

/**
 * Per-label feedback for one round (one search's A and B). `samePassage`: both models chose one
 * passage, rated once for both (an item per model, the same reaction).
 */
export function useFeedback(round: VoteRound, samePassage: boolean) {
  // Before the new round is painted, so that no press can meet the old round's state; the same
  // round again (the page opened anew) keeps its votes.
  useLayoutEffect(() => {
    if (useRoundFeedback.getState().roundId !== round.id) useRoundFeedback.setState({ roundId: round.id, state: INITIAL_FEEDBACK });
  }, [round.id]);
  const state = useRoundFeedback((s) => (s.roundId === round.id ? s.state : INITIAL_FEEDBACK));

  const react = useCallback(
    async (result: LabelledResult, reaction: Reaction) => {
      const label = result.resultLabel;
      /** Applies an event of this round (false: the round has changed since). */
      const apply = (event: FeedbackEvent): boolean => {
        const current = useRoundFeedback.getState();
        if (current.roundId !== round.id) return false;
        useRoundFeedback.setState({ state: feedbackReducer(current.state, event) });
        return true;
      };
      const current = useRoundFeedback.getState();
      if (current.roundId !== round.id || !canSubmit(current.state, label) || !apply({ type: 'submit', label, reaction })) return;
      const { user, userType } = useSession.getState();
      // A passage both models chose is rated once, for both: an item per model, the same reaction
      // (the server counts such a round apart, not as a comparison).
      const rated = samePassage ? round.pair : [result];
      const items = rated.map((shown) =>
        buildFeedbackItem({
          userType,
          username: user,
          query: round.query,
          result: shown,
          reaction,
          roundId: round.id,
          clientId: crypto.randomUUID(),
        }),
      );
      try {
        const outcome = await submitVotes(items, user ?? 'anonymous');
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
    [round.id, round.query, round.pair, samePassage],
  );

  return { state, react };
}
