import type { FeedbackItem as ApiFeedbackItem } from '../../../contract/api-schemas.ts';
// From the contract, not the session's entry: the service worker compiles this file too, and the
// session's store is for pages only.
import type { UserType } from '../../../contract/vocabulary.ts';
import type { LabelledResult } from '../../lib/search-result.ts';
import { resultText } from '../../lib/search-result.ts';
import type { Reaction } from '../../../contract/vocabulary.ts';

/**
 * One reaction as /api/save takes it; the app always sends its `client_id` and `round_id`, and
 * the `receipt` its search gave (`device` for a round this device answered offline).
 */
export type FeedbackItem = Required<Omit<ApiFeedbackItem, 'receipt'>> & Pick<ApiFeedbackItem, 'receipt'>;

export function buildFeedbackItem(input: {
  userType: UserType;
  username: string | null;
  query: string;
  result: LabelledResult;
  reaction: Reaction;
  roundId: string;
  clientId: string;
}): FeedbackItem {
  return {
    user_type: input.userType,
    username: input.username || 'anonymous',
    query: input.query,
    retrieved_text: resultText(input.result),
    model_type: input.result.model_type || 'unknown',
    result_label: input.result.resultLabel,
    reaction: input.reaction,
    confidence_score: input.result.similarity ?? 0,
    client_id: input.clientId,
    round_id: input.roundId,
    // Copied as the search gave it: the server counts the vote only for what that search showed.
    ...(input.result.receipt ? { receipt: input.result.receipt } : {}),
  };
}
