import type { FeedbackItem } from '../../src/features/feedback/feedback-item.ts';
import { createServer, type Socket } from 'node:net';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StoredFeedback } from '../../contract/api-schemas.ts';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { buildFeedbackItem } from '../../src/features/feedback/feedback-item.ts';
import { flushOutbox, outbox, sendFromPage } from '../../src/features/feedback/flush-outbox.ts';
import { countReplayed } from '../../src/features/feedback/delivery.ts';
import { useOutboxStatus } from '../../src/features/feedback/outbox-status.ts';
import { startOutboxSync } from '../../src/features/feedback/outbox-sync.ts';
import { submitVote, type VoteOutcome } from '../../src/features/feedback/submit-vote.ts';
import { useFeedback } from '../../src/features/feedback/use-feedback.ts';
import { startRound } from '../../src/features/search/ab-round.ts';
import { sharesOnePassage } from '../../src/features/search/choose-ab-pair.ts';
import { useSession } from '../../src/features/session/session-store.ts';
import { signIn } from '../../src/features/session/sign-in.ts';
import { readerOnServer } from './reader-on-server.ts';

const PASSWORD = 'correct horse battery';

describe('a vote from the page, through the outbox, to the real API', () => {
  const remote = readerOnServer(PASSWORD);
  const { onLine, offLine } = remote;

  const item = (query: string) =>
    buildFeedbackItem({
      userType: 'Ustaz',
      username: 'reader',
      query,
      result: { text: 'A passage.', model_type: 'LSA x', similarity: 0.4, resultLabel: 'A' },
      reaction: '👍',
      roundId: crypto.randomUUID(),
      clientId: crypto.randomUUID(),
    });
  const stored = async () => {
    const token = useSession.getState().authTokens!.access;
    return (await (await remote.server.api('/api/feedback?limit=100', { token })).json()) as StoredFeedback[];
  };

  it('delivers at once when the server answers', async () => {
    expect(await submitVote(item('online vote'), 'reader')).toEqual({ kind: 'delivered' });
    expect((await stored()).filter((v) => v.query === 'online vote')).toHaveLength(1);
    expect(await outbox.list()).toEqual([]);
  });

  it('learns what came of a vote from the replay that sent it, without reading the outbox again', async () => {
    const has = vi.spyOn(outbox, 'has');
    const letters = vi.spyOn(outbox, 'deadLetters');
    try {
      expect(await submitVote(item('one look'), 'reader')).toEqual({ kind: 'delivered' });
      expect(has).not.toHaveBeenCalled();
      // Once, for the status bar's refused votes; not again to learn this vote's fate.
      expect(letters).toHaveBeenCalledTimes(1);
    } finally {
      has.mockRestore();
      letters.mockRestore();
    }
  });

  it('queues while the server is unreachable, shows the count, then delivers exactly once', async () => {
    offLine();
    const first = await submitVote(item('offline vote 1'), 'reader');
    const second = await submitVote(item('offline vote 2'), 'reader');
    expect([first.kind, second.kind]).toEqual(['queued', 'queued']);
    expect(useOutboxStatus.getState().pending).toBe(2);
    onLine();
    // The first vote backed off; once its wait is over, a flush sends both, in order.
    const [head] = await outbox.list();
    await new Promise((r) => setTimeout(r, Math.max(0, head!.nextAttemptAt - Date.now()) + 10));
    expect(countReplayed(await flushOutbox(), 'delivered')).toBe(2);
    expect(useOutboxStatus.getState().pending).toBe(0);
    // Each card hears that its vote went, though its own send had ended long before.
    for (const outcome of [first, second]) expect(await (outcome.kind === 'queued' ? outcome.later : undefined)).toEqual({ kind: 'delivered' });
    const votes = (await stored()).filter((v) => v.query.startsWith('offline vote'));
    expect(votes.map((v) => v.query).sort()).toEqual(['offline vote 1', 'offline vote 2']);
  });

  it('acknowledges a vote as saved on the device while a stalled connection holds its send, then delivers it', async () => {
    // A server that takes the connection and never answers (a stalled proxy, a dead link).
    const sockets: Socket[] = [];
    const stalled = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    setApiBase(`http://127.0.0.1:${(stalled.address() as { port: number }).port}/api`);
    let outcome: VoteOutcome | undefined;
    try {
      outcome = await submitVote(item('stalled vote'), 'reader', { acknowledgeWithinMs: 300 });
      expect(outcome.kind).toBe('queued');
      expect(outcome.kind === 'queued' && outcome.later).toBeInstanceOf(Promise);
      expect(useOutboxStatus.getState().pending).toBe(1);
      // The connection dies: the send ends, and the vote is still waiting.
      await vi.waitFor(() => expect(sockets.length).toBeGreaterThan(0));
      for (const socket of sockets) socket.destroy();
      await vi.waitFor(async () => expect((await outbox.list())[0]?.attempts).toBe(1));
      expect(await outbox.list()).toHaveLength(1);
    } finally {
      stalled.close();
      onLine();
    }
    expect(countReplayed(await flushOutbox({ now: true }), 'delivered')).toBe(1);
    // The card hears of it: its send ended with the vote still waiting, and a later one sent it.
    expect(await (outcome.kind === 'queued' ? outcome.later : undefined)).toEqual({ kind: 'delivered' });
    expect((await stored()).filter((v) => v.query === 'stalled vote')).toHaveLength(1);
  });

  it('stores one vote for two presses handled in one task, before the page renders again', async () => {
    const round = startRound('pressed twice', [{ text: 'A passage.', model_type: 'LSA x', similarity: 0.4 }, { text: 'Another.', model_type: 'SIF y', similarity: 0.3 }]);
    const { result } = renderHook(() => useFeedback(round, false));
    const pressed = round.pair[1]!;
    await act(async () => {
      void result.current.react(pressed, '👎');
      void result.current.react(pressed, '👎');
    });
    await waitFor(() => expect(result.current.state.byLabel[pressed.resultLabel].status).toBe('success'));
    expect((await stored()).filter((v) => v.query === 'pressed twice')).toHaveLength(1);
  });

  it('rates a passage both models chose once: one item per model, the same reaction, in one round', async () => {
    const passage = { id: 'ch1-2', text: 'The heart is a mirror.', similarity: 0.4 };
    const round = startRound('one passage for both', [
      { ...passage, model_type: 'LSA x' },
      { ...passage, model_type: 'BM25 y', similarity: 0.2 },
    ]);
    // The search page says so when both models chose one passage (sharesOnePassage).
    expect(sharesOnePassage(round.pair)).toBe(true);
    const { result } = renderHook(() => useFeedback(round, sharesOnePassage(round.pair)));
    const card = round.pair[0]!;
    await act(async () => {
      await result.current.react(card, '🤷');
    });
    expect(result.current.state.byLabel[card.resultLabel]).toMatchObject({ status: 'success', reaction: '🤷' });
    const mine = (await stored()).filter((v) => v.query === 'one passage for both');
    expect(mine.map((v) => [v.result_label, v.model_type]).sort()).toEqual(
      round.pair.map((r) => [r.resultLabel, r.model_type]).sort(),
    );
    expect(new Set(mine.map((v) => `${v.reaction} ${v.round_id} ${v.retrieved_text}`))).toEqual(new Set([`🤷 ${round.id} ${passage.text}`]));
  });

  it('sends a vote left backed off by a long offline spell as soon as the app starts again', async () => {
    const vote = item('after a long offline spell');
    const entry = await outbox.add(vote, 'reader', Date.now());
    for (let failures = 0; failures < 9; failures++) await outbox.postpone((await outbox.list())[0]!, 'Network error', Date.now());
    expect((await outbox.list())[0]!.nextAttemptAt - Date.now()).toBeGreaterThan(4 * 60_000);
    const stop = startOutboxSync();
    try {
      await vi.waitFor(async () => expect(await outbox.has(entry.key)).toBe(false), { timeout: 10_000 });
    } finally {
      stop();
    }
    expect((await stored()).filter((v) => v.query === 'after a long offline spell')).toHaveLength(1);
  });

  it('counts a vote the server already has once, however often it is replayed', async () => {
    const vote = item('replayed vote');
    await outbox.add(vote, 'reader', Date.now());
    await outbox.add(vote, 'reader', Date.now());
    expect(countReplayed(await flushOutbox(), 'delivered')).toBe(2);
    expect((await stored()).filter((v) => v.query === 'replayed vote')).toHaveLength(1);
  });

  it('turns a vote the server refuses into a dead letter the reader can see', async () => {
    const bad = { ...item('refused vote'), reaction: '🎉' as never };
    const outcome = await submitVote(bad, 'reader');
    expect(outcome).toEqual({ kind: 'rejected', reason: 'items[0].reaction must be one of 👍, 🤷, 👎' });
    expect(useOutboxStatus.getState().deadLetters.map((d) => (d.item as FeedbackItem).query)).toEqual(['refused vote']);
  });

  it('holds a vote given by another reader for them, and still delivers this reader’s own at once', async () => {
    // Another reader voted offline here, then signed out: their vote must not hold back this one's.
    await outbox.add(item('someone else'), 'another-reader', Date.now());
    expect(await submitVote(item('after another reader'), 'reader')).toEqual({ kind: 'delivered' });
    expect((await stored()).filter((v) => v.query === 'after another reader')).toHaveLength(1);
    expect(await outbox.list()).toMatchObject([{ author: 'another-reader', attempts: 0 }]);
    expect(useOutboxStatus.getState()).toMatchObject({ reader: 'reader', pending: 0 });
    expect(countReplayed(await flushOutbox({ now: true }), 'passed-over')).toBe(1);
    await outbox.remove((await outbox.list())[0]!.key);
  });
  it('never sends a vote with another reader’s token, though the session changes hands while it is on its way', async () => {
    // The reader signs out in another tab (the server ends the session) and bob signs in there,
    // while this tab is sending the reader's vote.
    await remote.server.addUser('bob', PASSWORD);
    await remote.server.api('/api/logout', { method: 'POST', token: useSession.getState().authTokens!.access });
    const bob = (await (await remote.server.login('bob', PASSWORD)).json()) as { access_token: string; refresh_token: string };
    const now = Date.now();
    const sending = sendFromPage({ key: 'on-its-way', item: item('on its way'), author: 'reader', queuedAt: now, attempts: 0, nextAttemptAt: now });
    useSession.setState({ authTokens: { access: bob.access_token, refresh: bob.refresh_token }, user: 'bob', isAuthenticated: true });
    expect(await sending).toEqual({ kind: 'another-reader' });
    const bobsVotes = (await (await remote.server.api('/api/feedback?limit=100', { token: bob.access_token })).json()) as Array<{ query: string }>;
    expect(bobsVotes.filter((v) => v.query === 'on its way')).toEqual([]);
    await signIn('reader', PASSWORD);
  });
});
