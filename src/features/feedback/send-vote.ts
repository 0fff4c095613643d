import { apiObject, POST_NOT_REDIRECTED } from '../../lib/api/api-reply.ts';
import { outcomeOfNetworkError, outcomeOfReply, retryAfterMs, saveReplyOf, type OutboxEntry, type SendOutcome } from './outbox-rules.ts';

/** What a reply to /save means for the queued vote: its body is read, as only the API's receipt is delivery. */
export async function outcomeOfResponse(response: Response): Promise<SendOutcome> {
  const waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
  return outcomeOfReply(response.status, saveReplyOf(await apiObject(response)), 1, waitMs);
}

/** POSTs one queued vote to /save with the given token, and says what came of it. */
export async function sendVote(saveUrl: string, entry: OutboxEntry, accessToken: string): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch(saveUrl, {
      ...POST_NOT_REDIRECTED,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ items: [entry.item] }),
    });
  } catch (error) {
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response);
}
