import { describe, expect, it } from 'vitest';
import type { FeedbackItem } from '../../src/features/feedback/feedback-item.ts';
import { Outbox } from '../../src/features/feedback/outbox.ts';
import { backoffMs, retryAfterMs, type OutboxEntry, type SendOutcome } from '../../src/features/feedback/outbox-rules.ts';
import { statusFor } from '../../src/features/feedback/outbox-status.ts';
import { countReplayed, outcomeOfResponse, replayOutbox, withReplayLock, type ReplayReport } from '../../src/features/feedback/delivery.ts';

let outboxes = 0;
/** A run's outcomes as counts. */
const tally = (report: ReplayReport) => ({
  delivered: countReplayed(report, 'delivered'),
  deadLettered: countReplayed(report, 'rejected'),
  passedOver: countReplayed(report, 'passed-over'),
  stopped: report.stopped,
});
const freshOutbox = () => new Outbox(`test-${++outboxes}-${Math.random()}`);

function vote(n: number): FeedbackItem {
  return {
    user_type: 'Enthusiast',
    username: 'reader',
    query: `question ${n}`,
    retrieved_text: 'A passage.',
    model_type: 'LSA x',
    result_label: 'A',
    reaction: '👍',
    confidence_score: 0.5,
    client_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    round_id: '00000000-0000-4000-8000-000000000000',
  };
}

/** A delivery peer that answers from a script and records what it was sent, and how many at once. */
function peer(script: Array<SendOutcome['kind']>) {
  const sent: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const send = async (entry: OutboxEntry): Promise<SendOutcome> => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 1));
    sent.push((entry.item as FeedbackItem).query);
    inFlight -= 1;
    const kind = script.shift() ?? 'delivered';
    if (kind === 'retry') return { kind, reason: 'offline' };
    if (kind === 'rejected') return { kind, reason: 'items[0].reaction must be one of 👍, 🤷, 👎' };
    return { kind } as SendOutcome;
  };
  return { send, sent, maxInFlight: () => maxInFlight };
}

describe('the outbox', () => {
  it('keeps votes in the order given, even within one millisecond', async () => {
    const outbox = freshOutbox();
    for (let i = 1; i <= 5; i++) await outbox.add(vote(i), 'reader', 1000);
    expect((await outbox.list()).map((e) => (e.item as FeedbackItem).query)).toEqual(['question 1', 'question 2', 'question 3', 'question 4', 'question 5']);
  });

  it('survives a reload: a new page finds the same votes', async () => {
    const name = `reload-${Math.random()}`;
    await new Outbox(name).add(vote(1), 'reader', 1000);
    await new Outbox(name).add(vote(2), 'reader', 1001);
    expect((await new Outbox(name).list()).map((e) => e.item.client_id)).toEqual([vote(1).client_id, vote(2).client_id]);
  });

  it('replays one at a time, oldest first, and empties on delivery', async () => {
    const outbox = freshOutbox();
    for (let i = 1; i <= 4; i++) await outbox.add(vote(i), 'reader', 1000 + i);
    const p = peer([]);
    const report = await replayOutbox(outbox, p.send, () => 5000);
    expect(tally(report)).toEqual({ delivered: 4, deadLettered: 0, passedOver: 0, stopped: null });
    expect(p.sent).toEqual(['question 1', 'question 2', 'question 3', 'question 4']);
    expect(p.maxInFlight()).toBe(1);
    expect(await outbox.list()).toEqual([]);
  });

  it('keeps a vote that failed, backs off, and does not send the ones behind it', async () => {
    const outbox = freshOutbox();
    await outbox.add(vote(1), 'reader', 1000);
    await outbox.add(vote(2), 'reader', 1001);
    const p = peer(['retry']);
    expect((await replayOutbox(outbox, p.send, () => 10_000)).stopped).toBe('retry');
    expect(p.sent).toEqual(['question 1']);
    const [head] = await outbox.list();
    expect(head).toMatchObject({ attempts: 1, nextAttemptAt: 12_000, lastError: 'offline' });
    // Before the wait is over nothing is sent; after it, both go, in order.
    expect((await replayOutbox(outbox, p.send, () => 11_999)).stopped).toBe('not-due');
    expect(p.sent).toEqual(['question 1']);
    expect(tally(await replayOutbox(outbox, p.send, () => 12_000))).toEqual({ delivered: 2, deadLettered: 0, passedOver: 0, stopped: null });
    expect(p.sent).toEqual(['question 1', 'question 1', 'question 2']);
  });

  it('tries at once, back-off or not, when the reader asks', async () => {
    const outbox = freshOutbox();
    await outbox.add(vote(1), 'reader', 1000);
    const p = peer(['retry']);
    await replayOutbox(outbox, p.send, () => 10_000);
    expect(tally(await replayOutbox(outbox, p.send, () => 10_001, { ignoreBackoff: true }))).toEqual({ delivered: 1, deadLettered: 0, passedOver: 0, stopped: null });
  });

  it('doubles the wait with each failure, up to five minutes', () => {
    expect([1, 2, 3, 4, 10, 20].map(backoffMs)).toEqual([2_000, 4_000, 8_000, 16_000, 300_000, 300_000]);
  });

  it('waits as long as the server asks (Retry-After) when that is longer than the back-off, up to five minutes', async () => {
    expect(retryAfterMs('56', 0)).toBe(56_000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:01:00 GMT', 20_000)).toBe(40_000);
    expect([retryAfterMs(null, 0), retryAfterMs('soon', 0), retryAfterMs('', 0)]).toEqual([undefined, undefined, undefined]);
    const limited = new Response(JSON.stringify({ detail: 'Too many votes at once. Try again in 56 seconds.' }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '56' },
    });
    const outcome = await outcomeOfResponse(limited);
    expect(outcome).toEqual({ kind: 'retry', reason: 'Too many votes at once. Try again in 56 seconds.', waitMs: 56_000 });
    const outbox = freshOutbox();
    await outbox.add(vote(1), 'reader', 1000);
    await replayOutbox(outbox, async () => outcome, () => 2000);
    // The first back-off is 2 s; the server asked for 56.
    expect(await outbox.list()).toMatchObject([{ attempts: 1, nextAttemptAt: 2000 + 56_000 }]);
    expect(backoffMs(1, 3_600_000)).toBe(5 * 60_000);
    expect(statusFor('reader', await outbox.list(), []).nextAttemptAt).toBe(58_000);
    // A vote given after it waits behind it, though its own time came at once: the first one's
    // back-off is when the page tries them.
    await outbox.add(vote(2), 'reader', 3000);
    expect(statusFor('reader', await outbox.list(), []).nextAttemptAt).toBe(58_000);
  });

  it('keeps a vote that met a 401, without penalty, until there is a fresh token', async () => {
    const outbox = freshOutbox();
    await outbox.add(vote(1), 'reader', 1000);
    const p = peer(['auth']);
    expect((await replayOutbox(outbox, p.send, () => 2000)).stopped).toBe('auth');
    expect(await outbox.list()).toMatchObject([{ attempts: 0, nextAttemptAt: 1000 }]);
    expect(countReplayed(await replayOutbox(outbox, p.send, () => 2000), 'delivered')).toBe(1);
  });

  it('passes over another reader’s vote, without penalty, and sends the ones behind it', async () => {
    const outbox = freshOutbox();
    await outbox.add(vote(1), 'someone-else', 1000);
    await outbox.add(vote(2), 'reader', 1001);
    await outbox.add(vote(3), 'reader', 1002);
    const sent: string[] = [];
    const send = async (entry: OutboxEntry): Promise<SendOutcome> => {
      if (entry.author !== 'reader') return { kind: 'another-reader' };
      sent.push((entry.item as FeedbackItem).query);
      return { kind: 'delivered' };
    };
    expect(tally(await replayOutbox(outbox, send, () => 2000))).toEqual({ delivered: 2, deadLettered: 0, passedOver: 1, stopped: null });
    expect(sent).toEqual(['question 2', 'question 3']);
    expect(await outbox.list()).toMatchObject([{ author: 'someone-else', attempts: 0, nextAttemptAt: 1000 }]);
  });

  it('shows each reader their own waiting votes and refused ones; signed out, every waiting vote', async () => {
    const entry = (n: number, author: string) => ({ key: `k${n}`, item: vote(n), author, queuedAt: n, attempts: 0, nextAttemptAt: n });
    const letter = (n: number, author?: string) => ({ key: `d${n}`, item: vote(n), reason: 'refused', failedAt: n, ...(author ? { author } : {}) });
    const waiting = [entry(1, 'alice'), entry(2, 'bob'), entry(3, 'alice')];
    const refused = [letter(4, 'alice'), letter(5, 'bob'), letter(6)];
    const bob = statusFor('bob', waiting, refused);
    expect([bob.reader, bob.pending, bob.deadLetters.map((d) => d.key)]).toEqual(['bob', 1, ['d5', 'd6']]);
    const nobody = statusFor(null, waiting, refused);
    expect([nobody.reader, nobody.pending, nobody.deadLetters.map((d) => d.key)]).toEqual([null, 3, ['d6']]);
  });

  it('moves a vote the server refuses to the dead letters, with the reason, and goes on', async () => {
    const outbox = freshOutbox();
    await outbox.add(vote(1), 'reader', 1000);
    await outbox.add(vote(2), 'reader', 1001);
    const p = peer(['rejected', 'delivered']);
    const [first, second] = await outbox.list();
    // Each vote's own outcome: the caller needs no second look at the outbox to know it.
    expect(await replayOutbox(outbox, p.send, () => 2000)).toEqual({
      votes: [
        { key: first!.key, kind: 'rejected', reason: 'items[0].reaction must be one of 👍, 🤷, 👎' },
        { key: second!.key, kind: 'delivered' },
      ],
      stopped: null,
    });
    const letters = await outbox.deadLetters();
    expect(letters.map((l) => [(l.item as FeedbackItem).query, l.reason])).toEqual([['question 1', 'items[0].reaction must be one of 👍, 🤷, 👎']]);
    await outbox.dismissDeadLetter(letters[0]!.key);
    expect(await outbox.deadLetters()).toEqual([]);
  });

  it('counts a vote delivered only on the server’s receipt; other replies keep it, and only the server’s own refusal is a dead letter', async () => {
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
    const html = (status: number, body: string) => new Response(body, { status, headers: { 'content-type': 'text/html' } });
    const outcome = async (response: Response) => (await outcomeOfResponse(response)).kind;
    expect(await outcome(json(200, { saved: 1, duplicates: 0 }))).toBe('delivered');
    expect(await outcome(json(200, { saved: 0, duplicates: 1 }))).toBe('delivered');
    // A captive portal's or a sign-in wall's page, an empty or unrelated reply, a redirect: kept.
    expect(await outcome(html(200, '<html>Please sign in to the Wi-Fi</html>'))).toBe('retry');
    expect(await outcome(new Response(null, { status: 204 }))).toBe('retry');
    expect(await outcome(json(200, { ok: true }))).toBe('retry');
    expect(await outcome(Response.redirect('http://portal.example/', 302))).toBe('retry');
    expect(await outcome(json(401, { detail: 'Invalid token' }))).toBe('auth');
    expect(await outcome(html(503, 'Bad gateway'))).toBe('retry');
    expect(await outcome(json(429, { detail: 'Too many requests' }))).toBe('retry');
    // A proxy's 404 or 403 page says nothing of the vote: kept.
    expect(await outcome(html(404, '<html>404 Not Found (nginx)</html>'))).toBe('retry');
    expect(await outcome(html(403, '<html>Forbidden</html>'))).toBe('retry');
    // The server's own refusal, with its reason, is final.
    expect(await outcomeOfResponse(json(400, { detail: 'items[0].reaction must be one of 👍, 🤷, 👎' }))).toEqual({
      kind: 'rejected',
      reason: 'items[0].reaction must be one of 👍, 🤷, 👎',
    });
    expect(await outcome(json(413, { detail: 'The request body is too large' }))).toBe('rejected');
  });

  it('lets only one replay run at a time', async () => {
    const outbox = freshOutbox();
    for (let i = 1; i <= 6; i++) await outbox.add(vote(i), 'reader', 1000 + i);
    const p = peer([]);
    const run = () => withReplayLock(() => replayOutbox(outbox, p.send, () => 5000));
    const reports = await Promise.all([run(), run(), run()]);
    expect(reports.reduce((n, r) => n + countReplayed(r, 'delivered'), 0)).toBe(6);
    expect(p.sent).toEqual(['question 1', 'question 2', 'question 3', 'question 4', 'question 5', 'question 6']);
    expect(p.maxInFlight()).toBe(1);
  });
});
