import { apiObject, POST_NOT_REDIRECTED } from '../../lib/api/api-reply.ts';
import { outcomeOfNetworkError, outcomeOfReply, retryAfterMs, saveReplyOf, type OutboxEntry, type OutboxItem, type SendOutcome } from './outbox-rules.ts';
import { isSavedChange, savedRequest } from './saved-change.ts';

/** What a reply means for the queued item: its body is read, as only the API's receipt is delivery. */
export async function outcomeOfResponse(response: Response, item?: OutboxItem): Promise<SendOutcome> {
  const waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
  return outcomeOfReply(response.status, saveReplyOf(await apiObject(response), item), 1, waitMs);
}

/** A queued item's request from the API's base: a vote POSTs to /save, a saved passage's change goes to /saved/:id. */
export function outboxRequest(item: OutboxItem): { path: string; init: RequestInit } {
  if (isSavedChange(item)) {
    const { path, init } = savedRequest(item);
    return { path, init: { ...POST_NOT_REDIRECTED, ...init } };
  }
  return { path: '/save', init: { ...POST_NOT_REDIRECTED, body: JSON.stringify({ items: [item] }) } };
}

/** Sends one queued item (a vote, or a saved passage's change) with the given token, and says what came of it. */
export async function sendVote(apiBase: string, entry: OutboxEntry, accessToken: string): Promise<SendOutcome> {
  const { path, init } = outboxRequest(entry.item);
  let response: Response;
  try {
    response = await fetch(apiBase.replace(/\/$/, '') + path, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    });
  } catch (error) {
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response, entry.item);
}
