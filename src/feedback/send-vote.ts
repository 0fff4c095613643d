import type { OutboxEntry, SendOutcome } from './outbox-rules.ts';
import { outcomeOfStatus } from './outbox-rules.ts';

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
    return { kind: 'retry', reason: error instanceof Error ? error.message : 'Network error' };
  }
  let detail: string | undefined;
  if (!response.ok) {
    try {
      const body = (await response.json()) as { detail?: unknown };
      if (typeof body.detail === 'string') detail = body.detail;
    } catch {
      // no JSON body
    }
  }
  return outcomeOfStatus(response.status, detail);
}
