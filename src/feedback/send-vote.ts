import { serverDetail } from '../api/api-error.ts';
import { outcomeOfNetworkError, outcomeOfStatus, type OutboxEntry, type SendOutcome } from './outbox-rules.ts';

/** What a reply to /save means for the queued vote (the server's detail kept for a refusal). */
export async function outcomeOfResponse(response: Response): Promise<SendOutcome> {
  return outcomeOfStatus(response.status, response.ok ? undefined : await serverDetail(response));
}

/** POSTs one queued vote to /save with the given token, and says what came of it. */
export async function sendVote(saveUrl: string, entry: OutboxEntry, accessToken: string): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch(saveUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ items: [entry.item] }),
    });
  } catch (error) {
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response);
}
