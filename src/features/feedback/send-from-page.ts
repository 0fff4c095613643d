import { ApiError } from '../../lib/api/api-error.ts';
import { POST_NOT_REDIRECTED } from '../../lib/api/api-reply.ts';
import { authorizedFetch } from '../../lib/api/http-client.ts';
import { useSession } from '../session/index.ts';
import { outcomeOfNetworkError, type OutboxEntry, type SendOutcome } from './outbox-rules.ts';
import { outcomeOfResponse } from './send-vote.ts';

/**
 * Sends one vote from the page with the session's token, refreshing it (and retrying a 401) as
 * any call does. Only the vote's own author's token ever carries it.
 */
export async function sendFromPage(entry: OutboxEntry): Promise<SendOutcome> {
  const { isAuthenticated, user } = useSession.getState();
  if (!isAuthenticated) return { kind: 'auth' };
  if (user !== entry.author) return { kind: 'another-reader' };
  let response: Response;
  try {
    response = await authorizedFetch('/save', { ...POST_NOT_REDIRECTED, body: JSON.stringify({ items: [entry.item] }) }, { as: entry.author });
  } catch (error) {
    // The session may have changed hands while the vote was on its way: it waits for its author.
    if (error instanceof ApiError && error.kind === 'unauthorized') {
      return useSession.getState().user === entry.author ? { kind: 'auth' } : { kind: 'another-reader' };
    }
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response);
}
