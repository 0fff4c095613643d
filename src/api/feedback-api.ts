import type { FeedbackItem } from '../feedback/feedback-item.ts';
import { authorizedFetch, expectOk } from './http-client.ts';

/** POST /save with the bearer token. */
export async function saveFeedback(items: FeedbackItem[]): Promise<void> {
  await expectOk(await authorizedFetch('/save', { method: 'POST', body: JSON.stringify({ items }) }), 'Failed to save feedback');
}
