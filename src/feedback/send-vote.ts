import { outcomeOfNetworkError, outcomeOfReply, readSaveReply, NOT_THE_SERVER, type OutboxEntry, type SendOutcome } from './outbox-rules.ts';

/**
 * How a vote is sent: never redirected. A redirect is not the server's receipt (a captive portal,
 * a sign-in wall), and following it would carry the vote and its token somewhere else.
 */
export const SAVE_REQUEST: Pick<RequestInit, 'method' | 'redirect'> = { method: 'POST', redirect: 'manual' };

/** What a reply to /save means for the queued vote: its body is read, as only the API's receipt is delivery. */
export async function outcomeOfResponse(response: Response): Promise<SendOutcome> {
  if (response.type === 'opaqueredirect' || response.redirected) return { kind: 'retry', reason: `${NOT_THE_SERVER} (a redirect)` };
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The connection ended mid-reply: whether the vote was stored is unknown, and a resend is safe.
    return outcomeOfNetworkError(error);
  }
  return outcomeOfReply(response.status, readSaveReply(response.headers.get('content-type'), text));
}

/** POSTs one queued vote to /save with the given token, and says what came of it. */
export async function sendVote(saveUrl: string, entry: OutboxEntry, accessToken: string): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch(saveUrl, {
      ...SAVE_REQUEST,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ items: [entry.item] }),
    });
  } catch (error) {
    return outcomeOfNetworkError(error);
  }
  return outcomeOfResponse(response);
}
