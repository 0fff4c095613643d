import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUserCommand } from '../../server/modules/admin/user-commands.ts';
import { STORES, startTestServer, type TestServer, BOUND } from './harness.ts';

const PASSWORD = 'correct horse battery';
/** Writes a minute per reader: more than one reader's tests make, fewer than the busy one's. */
const LIMIT = 30;

describe.each(STORES)('saved passages on %s store', (store) => {
  let server: TestServer;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    server = await startTestServer(store, { extra: { voteRateLimit: LIMIT } });
    await server.addUser('reader', PASSWORD);
    await server.addUser('other', PASSWORD);
    token = ((await (await server.login('reader', PASSWORD)).json()) as { access_token: string }).access_token;
    otherToken = ((await (await server.login('other', PASSWORD)).json()) as { access_token: string }).access_token;
  });
  afterAll(() => server.close());

  const time = 1_000;
  const put = (id: string, body: Record<string, unknown>, as = token) =>
    server.api(`/api/saved/${id}`, { method: 'PUT', token: as, json: { saved_at: time, updated_at: time, note: '', ...body } });
  const remove = (id: string, at: number, as = token) => server.api(`/api/saved/${id}?updated_at=${at}`, { method: 'DELETE', token: as });
  const list = async (as = token) => (await (await server.api('/api/saved', { token: as })).json()) as Array<Record<string, unknown>>;

  it('saves a paragraph with its note, gives its chapter and opening words, lists newest first', async () => {
    const first = randomUUID();
    const second = randomUUID();
    expect((await put(first, { anchor: 'ch4#p12', note: 'Read to the class', saved_at: 10, updated_at: 10 })).status).toBe(200);
    const res = await put(second, { anchor: 'ch1#p1', saved_at: 20, updated_at: 20 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: second, anchor: 'ch1#p1', chapter: expect.stringMatching(/^Chapter I\b/), removed: false });
    const saved = await list();
    expect(saved.map((s) => s.id)).toEqual([second, first]);
    expect(saved[1]).toMatchObject({ anchor: 'ch4#p12', note: 'Read to the class', chapter: expect.stringMatching(/^Chapter IV\b/) });
    expect(String(saved[1]!.excerpt).length).toBeGreaterThan(20);
  });

  it('takes a search result’s passage id and keeps the paragraph it begins with', async () => {
    const id = randomUUID();
    const res = await put(id, { passage: 'preface-3' });
    expect(await res.json()).toMatchObject({ anchor: 'preface#p4' });
  });

  it('stores a replayed save once, and lets the newest change win whatever order they arrive in', async () => {
    const id = randomUUID();
    await put(id, { anchor: 'ch2#p3', note: 'first', saved_at: 100, updated_at: 100 });
    await put(id, { anchor: 'ch2#p3', note: 'first', saved_at: 100, updated_at: 100 });
    await put(id, { anchor: 'ch2#p3', note: 'edited', saved_at: 100, updated_at: 300 });
    // An older edit arriving late changes nothing.
    const late = await put(id, { anchor: 'ch2#p3', note: 'stale', saved_at: 100, updated_at: 200 });
    expect(await late.json()).toMatchObject({ note: 'edited', updated_at: 300 });
    expect((await list()).filter((s) => s.id === id)).toHaveLength(1);
    // A removal older than the edit is ignored; a newer one removes it, and a late save does not bring it back.
    expect(await (await remove(id, 250)).json()).toMatchObject({ removed: false, note: 'edited' });
    expect(await (await remove(id, 400)).json()).toMatchObject({ removed: true });
    await put(id, { anchor: 'ch2#p3', note: 'edited', saved_at: 100, updated_at: 300 });
    expect((await list()).some((s) => s.id === id)).toBe(false);
  });

  it('keeps each reader’s saves their own, even under the same id', async () => {
    const id = randomUUID();
    await put(id, { anchor: 'ch3#p2', note: 'mine' });
    const theirs = await put(id, { anchor: 'ch5#p1', note: 'theirs', updated_at: time + 10 }, otherToken);
    expect(await theirs.json()).toMatchObject({ anchor: 'ch5#p1', note: 'theirs' });
    await remove(id, time + 20, otherToken);
    expect((await list()).find((s) => s.id === id)).toMatchObject({ anchor: 'ch3#p2', note: 'mine' });
    expect((await list(otherToken)).some((s) => s.id === id)).toBe(false);
    expect((await server.api('/api/saved')).status).toBe(401);
    expect((await server.api(`/api/saved/${id}`, { method: 'PUT', json: { anchor: 'ch1#p1', saved_at: 1, updated_at: 1 } })).status).toBe(401);
  });

  it.each([
    [{ anchor: 'ch4#p9999' }, /anchor ch4#p9999 is no paragraph/],
    [{ anchor: 'ch99#p1' }, /no paragraph/],
    [{ passage: 'ch4-999' }, /no passage/],
    [{}, /anchor is required/],
    [{ anchor: 'ch1#p1', note: 'x'.repeat(1001) }, /note/],
    [{ anchor: 'ch1#p1', note: 'a\u0007bell' }, /note must not contain control characters/],
    [{ anchor: 'ch1#p1', updated_at: -1 }, /updated_at/],
  ])('refuses %j with a detail and stores nothing', async (body, detail) => {
    const before = (await list()).length;
    const res = await put(randomUUID(), body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    expect((await list()).length).toBe(before);
  });

  it('refuses an id that is not a UUID', async () => {
    const res = await put('not-a-uuid', { anchor: 'ch1#p1' });
    expect(res.status).toBe(400);
    expect(await res.json()).toHaveProperty('detail');
  });

  it('limits a reader’s writes a minute, with Retry-After, and forgets their saves on `users forget`', async () => {
    const reader = 'busy';
    await server.addUser(reader, PASSWORD);
    const busy = ((await (await server.login(reader, PASSWORD)).json()) as { access_token: string }).access_token;
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await put(randomUUID(), { anchor: 'ch1#p1' }, busy)).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
    const refused = await put(randomUUID(), { anchor: 'ch1#p1' }, busy);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await list(busy)).length).toBe(LIMIT);
    expect(await runUserCommand(server.db, { command: 'forget', username: reader }, { dailyRoundBound: BOUND })).toBe('Forgot busy: 0 vote(s), 30 saved passage(s) and 1 session(s) deleted');
    const rows = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM saved_passages WHERE username = $1', [reader]);
    expect(rows[0]!.n).toBe(0);
  });
});
