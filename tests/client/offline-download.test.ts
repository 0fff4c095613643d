import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApiBase } from '../../src/lib/api/api-base.ts';
import { DAMAGED_PACK, downloadPack, fetchPackOffer, megabytes, spaceProblem, type OfflinePackInfo } from '../../src/features/offline/pack-download.ts';

/** Bytes that begin as every pack does. */
const PACK = new Uint8Array(200_000);
PACK.set(new TextEncoder().encode('ALCHPK1\n'));
for (let i = 8; i < PACK.length; i++) PACK[i] = i % 251;

const offer = (overrides: Partial<OfflinePackInfo> = {}): OfflinePackInfo => ({
  version: '0123456789abcdef',
  url: '/offline-pack/0123456789abcdef',
  size: 1000,
  stored_size: PACK.byteLength,
  models: ['LSA x', 'SIF y'],
  sha256: createHash('sha256').update(PACK).digest('hex'),
  ...overrides,
});

describe('downloading the offline book', () => {
  let server: Server;
  let answer: (path: string) => { headers: Record<string, string>; body: Uint8Array };
  beforeAll(async () => {
    server = createServer((request, reply) => {
      const { headers, body } = answer(request.url ?? '');
      reply.writeHead(200, headers).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    setApiBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
  });
  afterAll(() => server?.close());
  afterEach(() => (answer = () => ({ headers: {}, body: new Uint8Array() })));

  it('reads the pack as it arrives, counting progress in bytes as kept (the transfer’s compression undone)', async () => {
    let asked = '';
    answer = (path) => {
      asked = path;
      return { headers: { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' }, body: gzipSync(PACK) };
    };
    const progress: Array<[number, number]> = [];
    const bytes = await downloadPack(offer(), (received, total) => progress.push([received, total]));
    expect(asked).toBe('/api/offline-pack/0123456789abcdef');
    expect(new Uint8Array(bytes)).toEqual(PACK);
    expect(progress.at(-1)).toEqual([PACK.byteLength, PACK.byteLength]);
    expect(progress.every(([received], i) => i === 0 || received > progress[i - 1]![0])).toBe(true);
  });

  it('refuses what is not the whole pack: a captive portal’s page, a download cut short', async () => {
    answer = () => ({ headers: { 'content-type': 'text/html' }, body: new TextEncoder().encode('<html>Sign in to the Wi-Fi</html>') });
    await expect(downloadPack(offer(), () => undefined)).rejects.toThrow('something other than the server answered');
    answer = () => ({ headers: { 'content-type': 'application/octet-stream' }, body: PACK.subarray(0, 1000) });
    await expect(downloadPack(offer(), () => undefined)).rejects.toThrow('arrived incomplete; nothing was saved');
    answer = () => ({ headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(PACK.byteLength) });
    await expect(downloadPack(offer(), () => undefined)).rejects.toThrow('arrived incomplete');
  });

  it('refuses a pack whose SHA-256 is not the offer’s, though its length and first bytes are right', async () => {
    const damaged = PACK.slice();
    damaged[100_000] = damaged[100_000]! ^ 0xff;
    answer = () => ({ headers: { 'content-type': 'application/octet-stream' }, body: damaged });
    await expect(downloadPack(offer(), () => undefined)).rejects.toThrow(DAMAGED_PACK);
    // The same bytes, offered under their own digest, are taken.
    const own = createHash('sha256').update(damaged).digest('hex');
    expect(new Uint8Array(await downloadPack(offer({ sha256: own }), () => undefined))).toEqual(damaged);
  });

  it('takes no offer without a digest to check the pack by', async () => {
    const { sha256: _dropped, ...undigested } = offer();
    answer = () => ({ headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(undigested)) });
    await expect(fetchPackOffer()).rejects.toThrow('cannot be reached');
    answer = () => ({ headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(offer())) });
    expect(await fetchPackOffer()).toEqual(offer());
  });
});

describe('the space the offline book needs', () => {
  const storage = (quota: number | undefined, usage: number) => ({ estimate: async () => ({ quota, usage }) });

  it('says how much is needed and how much the browser allows, before any download', async () => {
    expect(await spaceProblem(10_700_000, storage(5_000_000, 4_000_000))).toBe(
      'There is not enough space on this device for the offline book: it needs 10.7 MB, and the browser allows 1.0 MB more. Free some space and try again.',
    );
  });

  it('lets the download go where there is room, or the browser does not say', async () => {
    expect(await spaceProblem(10_700_000, storage(300_000_000, 4_000_000))).toBeNull();
    expect(await spaceProblem(10_700_000, storage(undefined, 0))).toBeNull();
    expect(await spaceProblem(10_700_000, undefined)).toBeNull();
  });

  it('states sizes as a reader reads them', () => {
    expect(megabytes(8_469_745)).toBe('8.5 MB');
    expect(megabytes(10_703_616)).toBe('10.7 MB');
  });
});
