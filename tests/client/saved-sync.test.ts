import { describe, expect, it } from 'vitest';
import type { SavedPassage } from '../../contract/api-schemas.ts';
import { flushOutbox, outbox } from '../../src/features/feedback/flush-outbox.ts';
import { editNote, refreshSaved, removeSaved, savePassage, useSaved } from '../../src/features/saved/saved-store.ts';
import { useSession } from '../../src/features/session/session-store.ts';
import { signOut } from '../../src/features/session/sign-in.ts';
import { readerOnServer } from './reader-on-server.ts';

const PASSWORD = 'correct horse battery';

describe('saved passages, through the votes’ outbox, to the real API', () => {
  const remote = readerOnServer(PASSWORD);
  const { onLine, offLine } = remote;

  const onServer = async () => {
    const token = useSession.getState().authTokens!.access;
    return (await (await remote.server.api('/api/saved', { token })).json()) as SavedPassage[];
  };

  it('keeps a save and its edit made offline, then delivers them once, the newest note winning', async () => {
    offLine();
    await savePassage({ passage: 'preface-3', chapter: 'Preface', excerpt: 'A passage.', note: 'first thought' });
    expect(useSaved.getState().items.map((i) => i.note)).toEqual(['first thought']);
    await editNote(useSaved.getState().items[0]!, 'second thought');
    expect((await outbox.list()).length).toBe(2);
    expect(await onServer()).toEqual([]);

    onLine();
    await flushOutbox({ now: true });
    await flushOutbox({ now: true });
    const saved = await onServer();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ anchor: 'preface#p4', note: 'second thought', chapter: 'Preface' });
    expect(await outbox.list()).toEqual([]);

    // The device learns the paragraph the passage begins with.
    await refreshSaved();
    expect(useSaved.getState().items.map((i) => [i.anchor, i.note])).toEqual([['preface#p4', 'second thought']]);
  });

  it('shows another device’s save, and a removal made offline reaches the server once online', async () => {
    const token = useSession.getState().authTokens!.access;
    const id = crypto.randomUUID();
    await remote.server.api(`/api/saved/${id}`, { method: 'PUT', token, json: { anchor: 'ch4#p12', note: 'from the phone', saved_at: Date.now(), updated_at: Date.now() } });
    await refreshSaved();
    expect(useSaved.getState().items[0]).toMatchObject({ id, anchor: 'ch4#p12', note: 'from the phone' });

    offLine();
    await removeSaved(useSaved.getState().items[0]!);
    expect(useSaved.getState().items.some((i) => i.id === id)).toBe(false);
    expect((await onServer()).some((s) => s.id === id)).toBe(true);
    onLine();
    await flushOutbox({ now: true });
    expect((await onServer()).some((s) => s.id === id)).toBe(false);
    await refreshSaved();
    expect(useSaved.getState().items.map((i) => i.anchor)).toEqual(['preface#p4']);
  });

  it('keeps a signed-out save on this device only', async () => {
    await signOut();
    await savePassage({ anchor: 'ch1#p1', chapter: 'Chapter I', excerpt: 'Know, O beloved…', note: '' });
    expect(useSaved.getState().items.map((i) => i.anchor)).toEqual(['ch1#p1']);
    expect(await outbox.list()).toEqual([]);
  });
});
