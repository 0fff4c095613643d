import { describe, expect, it } from 'vitest';
import { mergeSaved, paragraphNumber, readLink, shownSaved, type LocalSaved, type ServerSaved } from '../../src/features/saved/saved-merge.ts';

const server = (id: string, updated_at: number, note = ''): ServerSaved => ({ id, anchor: 'ch4#p12', chapter: 'Chapter IV', excerpt: 'Text', note, saved_at: updated_at, updated_at });
const local = (id: string, updated_at: number, note = '', removed = false): LocalSaved => ({ owner: 'reader', ...server(id, updated_at, note), removed });

describe('merging the server’s saved passages into the device’s', () => {
  it('takes the server’s list, dropping a device copy with nothing waiting (removed elsewhere)', () => {
    const merged = mergeSaved('reader', [local('gone', 5), local('a', 1, 'old')], [server('a', 2, 'new')], new Set());
    expect(merged.map((m) => [m.id, m.note])).toEqual([['a', 'new']]);
  });

  it('keeps a device change still waiting in the outbox when it is newer, a removal too', () => {
    const merged = mergeSaved('reader', [local('a', 3, 'mine'), local('b', 4, '', true), local('c', 1, 'offline')], [server('a', 2, 'theirs'), server('b', 2)], new Set(['a', 'b', 'c']));
    expect(merged.map((m) => [m.id, m.note, m.removed])).toEqual([['a', 'mine', false], ['b', '', true], ['c', 'offline', false]]);
    expect(shownSaved(merged).map((m) => m.id)).toEqual(['a', 'c']);
  });

  it('lets the server’s newer change win over an older one still waiting', () => {
    expect(mergeSaved('reader', [local('a', 1, 'older')], [server('a', 9, 'newer')], new Set(['a']))[0]!.note).toBe('newer');
  });

  it('links to the paragraph, or to the passage until its paragraph is known', () => {
    expect(readLink({ anchor: 'ch4#p12' })).toBe('/read/ch4#p12');
    expect(readLink({ passage: 'ch4-7' })).toBe('/read/ch4-7');
    expect(paragraphNumber('ch4#p12')).toBe(12);
    expect(paragraphNumber(undefined)).toBeNull();
  });
});

describe('the outbox bar’s count', () => {
  it('tells votes and saved passages’ changes apart', async () => {
    const { statusFor } = await import('../../src/features/feedback/outbox-status.ts');
    const entry = (item: object) => ({ key: String(Math.random()), item, author: 'reader', queuedAt: 0, attempts: 0, nextAttemptAt: 0 }) as never;
    const status = statusFor('reader', [entry({ query: 'q' }), entry({ kind: 'saved', op: 'put', id: 'x' })], []);
    expect([status.pending, status.savedPending]).toEqual([2, 1]);
  });
});
