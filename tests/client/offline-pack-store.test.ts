import { beforeEach, describe, expect, it } from 'vitest';
import { readBookText, readPack, readPackInfo, removePack, saveBookText, savePack, type StoredPackInfo } from '../../src/features/offline/pack-store.ts';

const infoOf = (version: string, storedBytes: number): StoredPackInfo => ({
  version,
  storedBytes,
  models: ['LSA a', 'SIF b'],
  savedAt: 1_700_000_000_000,
  persisted: true,
});

const bytesOf = (fill: number, length: number) => new Uint8Array(length).fill(fill).buffer;

describe('the offline book kept on the device', () => {
  beforeEach(async () => {
    await removePack();
  });

  it('keeps a downloaded pack and its description together', async () => {
    expect(await readPackInfo()).toBeUndefined();
    await savePack(infoOf('v1', 16), bytesOf(1, 16));
    expect(await readPackInfo()).toEqual(infoOf('v1', 16));
    const pack = await readPack();
    expect(pack?.version).toBe('v1');
    expect(new Uint8Array(pack!.bytes)).toEqual(new Uint8Array(16).fill(1));
  });

  it("keeps the book's text beside the pack, and removes it with the pack", async () => {
    await savePack(infoOf('v1', 16), bytesOf(1, 16));
    expect(await readBookText()).toBeUndefined();
    const book = { title: 'The Alchemy of Happiness', edition: 'e', parts: [{ slug: 'ch1', heading: 'Chapter I', paragraphs: [], notes: [] }] };
    await saveBookText(book);
    expect(await readBookText()).toEqual(book);
    // A newer pack leaves the text as it is (it is fetched again with each download).
    await savePack(infoOf('v2', 16), bytesOf(2, 16));
    expect(await readBookText()).toEqual(book);
    await removePack();
    expect(await readBookText()).toBeUndefined();
  });

  it('replaces a kept pack whole with a newer version', async () => {
    await savePack(infoOf('v1', 16), bytesOf(1, 16));
    await savePack(infoOf('v2', 32), bytesOf(2, 32));
    expect((await readPackInfo())?.version).toBe('v2');
    const pack = await readPack();
    expect(pack?.version).toBe('v2');
    expect(new Uint8Array(pack!.bytes)).toEqual(new Uint8Array(32).fill(2));
  });

  it('keeps the earlier pack, bytes and description, when saving a new one fails part way', async () => {
    await savePack(infoOf('v1', 16), bytesOf(1, 16));
    // The bytes are queued, then the description cannot be stored: nothing of v2 may remain.
    const unstorable = { ...infoOf('v2', 32), persisted: (() => true) as unknown as boolean };
    await expect(savePack(unstorable, bytesOf(2, 32))).rejects.toThrow();
    expect(await readPackInfo()).toEqual(infoOf('v1', 16));
    const pack = await readPack();
    expect(pack?.version).toBe('v1');
    expect(new Uint8Array(pack!.bytes)).toEqual(new Uint8Array(16).fill(1));
  });

  it('removes it, and says so when asked again (as after the browser cleared it)', async () => {
    await savePack(infoOf('v1', 16), bytesOf(1, 16));
    await removePack();
    expect(await readPackInfo()).toBeUndefined();
    expect(await readPack()).toBeUndefined();
  });
});
