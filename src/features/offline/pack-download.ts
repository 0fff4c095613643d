import type { OfflinePackInfo } from '../../../contract/offline-pack.ts';
import { apiUrl } from '../../lib/api/api-base.ts';
import { ApiError, errorFromResponse } from '../../lib/api/api-error.ts';
import { jsonReply, publicFetch } from '../../lib/api/http-client.ts';

export type { OfflinePackInfo };

const NO_ANSWER = 'The offline book cannot be downloaded: the server cannot be reached';

/** The pack the server offers now (its version, size and url), or null where it offers none (404). */
export async function fetchPackOffer(): Promise<OfflinePackInfo | null> {
  const response = await publicFetch('/offline-pack', {}, NO_ANSWER);
  if (response.status === 404) return null;
  const offer = await jsonReply<Partial<OfflinePackInfo>>(response, NO_ANSWER);
  if (typeof offer.version !== 'string' || typeof offer.url !== 'string' || typeof offer.stored_size !== 'number' || !/^[0-9a-f]{64}$/.test(offer.sha256 ?? '')) {
    throw new ApiError('network', NO_ANSWER);
  }
  return offer as OfflinePackInfo;
}

/** The first bytes of every pack (common/offline/pack-codec.ts). */
const PACK_MAGIC = 'ALCHPK1\n';

/** What a reader is told when the bytes that arrived are not the pack the server offered. */
export const DAMAGED_PACK = 'The offline book arrived damaged: it is not the file the server offered (its SHA-256 checksum does not match). Nothing was saved; try again.';

/** A SHA-256 as 64 hex digits, by the browser's own Web Crypto. */
async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The pack's bytes, read as they arrive with `onProgress(received, total)` (bytes as kept, the
 * browser having undone the transfer's compression), whole or not at all: a download cut off, or
 * answered by something other than the server (a captive portal's page), throws; so do bytes
 * whose SHA-256 is not the offer's (damaged on the way, or by something in between), before
 * anything is kept or used.
 */
export async function downloadPack(offer: OfflinePackInfo, onProgress: (received: number, total: number) => void, signal?: AbortSignal): Promise<ArrayBuffer> {
  let response: Response;
  try {
    response = await fetch(apiUrl(offer.url), { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('network', NO_ANSWER);
  }
  if (!response.ok) throw await errorFromResponse(response, NO_ANSWER);
  if (!response.headers.get('content-type')?.startsWith('application/octet-stream') || !response.body) {
    throw new ApiError('network', 'The offline book cannot be downloaded: something other than the server answered');
  }
  const total = offer.stored_size;
  let bytes = new Uint8Array(total);
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError('network', 'The download of the offline book was cut off; nothing was saved');
    }
    if (chunk.done) break;
    if (received + chunk.value.byteLength > bytes.byteLength) {
      const larger = new Uint8Array(Math.max(bytes.byteLength * 2, received + chunk.value.byteLength));
      larger.set(bytes.subarray(0, received));
      bytes = larger;
    }
    bytes.set(chunk.value, received);
    received += chunk.value.byteLength;
    onProgress(received, total);
  }
  const magic = new TextDecoder().decode(bytes.subarray(0, PACK_MAGIC.length));
  if (received !== total || magic !== PACK_MAGIC) {
    throw new ApiError('network', 'The offline book arrived incomplete; nothing was saved');
  }
  const whole = bytes.byteLength === received ? bytes : bytes.slice(0, received);
  if ((await sha256Hex(whole)) !== offer.sha256) throw new ApiError('network', DAMAGED_PACK);
  return whole.buffer as ArrayBuffer;
}

/** "8.5 MB": a size as a reader reads it (decimal megabytes, as browsers and phones show storage). */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}

/**
 * Why the browser would not take `needed` more bytes, by its own estimate (navigator.storage),
 * or null when it would or does not say.
 */
export async function spaceProblem(needed: number, storage: Pick<StorageManager, 'estimate'> | undefined = navigator.storage): Promise<string | null> {
  const estimate = await storage?.estimate?.().catch(() => undefined);
  if (!estimate?.quota) return null;
  const free = Math.max(0, estimate.quota - (estimate.usage ?? 0));
  if (free >= needed) return null;
  return `There is not enough space on this device for the offline book: it needs ${megabytes(needed)}, and the browser allows ${megabytes(free)} more. Free some space and try again.`;
}
