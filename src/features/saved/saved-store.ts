import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { create } from 'zustand';
import { authorizedFetch, jsonReply } from '../../lib/api/http-client.ts';
import { flushOutbox, queueSavedChange, waitingSavedIds, type SavedChange } from '../feedback/index.ts';
import { useSession } from '../session/index.ts';
import { mergeSaved, shownSaved, type LocalSaved, type ServerSaved } from './saved-merge.ts';

/** The device's copy of saved passages (IndexedDB), keyed `<owner>:<id>`; owner '' is signed out. */
let store: UseStore | null = null;
function db(): UseStore {
  store ??= createStore('alchemy-saved', 'passages');
  return store;
}

const keyOf = (item: Pick<LocalSaved, 'owner' | 'id'>) => `${item.owner}:${item.id}`;

async function localOf(owner: string): Promise<LocalSaved[]> {
  return (await entries<string, LocalSaved>(db())).map(([, item]) => item).filter((item) => item.owner === owner);
}

/** What the Saved page shows: the current reader's saves (or this device's, signed out), newest first. */
export const useSaved = create<{ owner: string | null; items: LocalSaved[]; offline: boolean }>()(() => ({ owner: null, items: [], offline: false }));

function ownerNow(): string {
  const { isAuthenticated, user } = useSession.getState();
  return isAuthenticated && user ? user : '';
}

async function show(owner: string, offline = useSaved.getState().offline): Promise<void> {
  useSaved.setState({ owner, items: shownSaved(await localOf(owner)), offline });
}

/**
 * Reads the device's saves, then, signed in, the server's (after sending what waits): the server's
 * list wins but for saves with a change still waiting. Unreachable, the device's stand.
 */
export async function refreshSaved(): Promise<void> {
  const owner = ownerNow();
  await show(owner);
  if (!owner) return;
  // What waits goes first, so the server's list already holds it.
  await flushOutbox({ now: true }).catch(() => undefined);
  let server: ServerSaved[];
  try {
    server = await jsonReply<ServerSaved[]>(await authorizedFetch('/saved'), 'Could not load your saved passages');
  } catch {
    await show(owner, true);
    return;
  }
  const merged = mergeSaved(owner, await localOf(owner), server, await waitingSavedIds(owner));
  for (const item of await localOf(owner)) await del(keyOf(item), db());
  for (const item of merged) await set(keyOf(item), item, db());
  await show(owner, false);
}

async function change(item: LocalSaved, op: SavedChange['op']): Promise<void> {
  await set(keyOf(item), item, db());
  await show(item.owner);
  if (!item.owner) return;
  const { id, anchor, passage, note, saved_at, updated_at } = item;
  const report = await queueSavedChange(
    { kind: 'saved', op, client_id: crypto.randomUUID(), id, ...(anchor ? { anchor } : passage ? { passage } : {}), note, saved_at, updated_at },
    item.owner,
  );
  // Sent: the server's copy (the paragraph a result's passage begins with) is read back.
  if (report && report.stopped === null) await refreshSaved();
}

/** Saves a paragraph (or a search result's passage) with an optional note. */
export async function savePassage(input: { anchor?: string; passage?: string; chapter: string; excerpt: string; note: string }): Promise<void> {
  const now = Date.now();
  const { anchor, passage } = input;
  await change(
    {
      owner: ownerNow(),
      id: crypto.randomUUID(),
      ...(anchor ? { anchor } : passage ? { passage } : {}),
      chapter: input.chapter,
      excerpt: input.excerpt,
      note: input.note,
      saved_at: now,
      updated_at: now,
      removed: false,
    },
    'put',
  );
}

export async function editNote(item: LocalSaved, note: string): Promise<void> {
  await change({ ...item, note, updated_at: Math.max(Date.now(), item.updated_at + 1) }, 'put');
}

export async function removeSaved(item: LocalSaved): Promise<void> {
  const removed = { ...item, removed: true, updated_at: Math.max(Date.now(), item.updated_at + 1) };
  if (!item.owner) {
    await del(keyOf(item), db());
    await show('');
    return;
  }
  await change(removed, 'delete');
}
