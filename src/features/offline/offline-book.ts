import { create } from 'zustand';
import { ApiError } from '../../lib/api/api-error.ts';
import { forgetLoadedPack, loadOnDevice } from './device-search.ts';
import { downloadPack, fetchPackOffer, spaceProblem, type OfflinePackInfo } from './pack-download.ts';
import { keepBookText } from './book-text.ts';
import { readBookText, readPackInfo, removePack, savePack, type StoredPackInfo } from './pack-store.ts';

/**
 * The offline book on this device, as the control shows it: `checking` until its storage has
 * been read; `absent` (none kept: never downloaded, removed, or cleared by the browser, which the
 * control then offers again); `downloading` with its progress; `ready`; `updating` (a newer
 * version downloading in the background, the kept one still answering).
 */
export interface OfflineBookState {
  status: 'checking' | 'absent' | 'downloading' | 'ready' | 'updating';
  stored: StoredPackInfo | null;
  /** What the server offers now; null while unknown, or where it offers none (`unavailable`). */
  offer: OfflinePackInfo | null;
  unavailable: boolean;
  progress: { received: number; total: number } | null;
  error: string | null;
}

export const useOfflineBook = create<OfflineBookState>(() => ({
  status: 'checking',
  stored: null,
  offer: null,
  unavailable: false,
  progress: null,
  error: null,
}));

const set = (patch: Partial<OfflineBookState>) => useOfflineBook.setState(patch);

/** One download at a time; it can be called off. */
let downloading: { controller: AbortController; done: Promise<void> } | null = null;

/** Whether a write failed for want of space (the browser's quota). */
const isQuotaError = (error: unknown) => error instanceof DOMException && error.name === 'QuotaExceededError';

/** Downloads `offer`, keeps it whole and loads it into the search worker (status `downloading`, or `updating` beside a kept pack). */
function download(offer: OfflinePackInfo, persisted: boolean): Promise<void> {
  if (downloading) return downloading.done;
  const controller = new AbortController();
  const updating = useOfflineBook.getState().stored !== null;
  set({ status: updating ? 'updating' : 'downloading', progress: { received: 0, total: offer.stored_size }, error: null });
  const done = (async () => {
    try {
      const problem = await spaceProblem(offer.stored_size);
      if (problem) throw new Error(problem);
      const bytes = await downloadPack(offer, (received, total) => set({ progress: { received, total } }), controller.signal);
      const info: StoredPackInfo = { version: offer.version, storedBytes: bytes.byteLength, models: offer.models, savedAt: Date.now(), persisted };
      try {
        await savePack(info, bytes);
      } catch (error) {
        throw isQuotaError(error)
          ? new Error('The browser refused to keep the offline book: this device has not enough space left for it. Nothing was saved.')
          : new Error('The offline book could not be saved on this device. Nothing was saved.', { cause: error });
      }
      // The book's text goes with it, so that the reader reads with no network too.
      await keepBookText(controller.signal);
      // The next question reads the new pack; it is opened now, so that the first one is quick.
      forgetLoadedPack();
      try {
        await loadOnDevice();
      } catch (error) {
        await removePack();
        throw new Error('The offline book could not be opened on this device, and was removed. Try again.', { cause: error });
      }
      set({ status: 'ready', stored: info, progress: null, error: null });
    } catch (error) {
      const stored = (await readPackInfo().catch(() => undefined)) ?? null;
      set({
        status: stored ? 'ready' : 'absent',
        stored,
        progress: null,
        error: controller.signal.aborted ? null : error instanceof Error ? error.message : 'The offline book could not be downloaded',
      });
    } finally {
      downloading = null;
    }
  })();
  downloading = { controller, done };
  return done;
}

/**
 * Reads what this device keeps, and what the server offers now (when it can be reached). A kept
 * pack of another version than the server's is replaced in the background, whole: the kept one
 * answers until the new one is kept.
 */
export async function checkOfflineBook(): Promise<void> {
  if (downloading) return;
  const stored = (await readPackInfo().catch(() => undefined)) ?? null;
  set({ stored, status: stored ? 'ready' : 'absent' });
  if (!navigator.onLine) return;
  let offer: OfflinePackInfo | null;
  try {
    offer = await fetchPackOffer();
  } catch {
    return; // The server cannot be reached now: the offer waits for the next visit.
  }
  set({ offer, unavailable: offer === null });
  if (offer && stored && offer.version !== stored.version) await download(offer, stored.persisted);
  // A pack kept before the book's text was kept with it: the text is fetched now.
  else if (stored && (await readBookText().catch(() => undefined)) === undefined) await keepBookText().catch(() => undefined);
}

/**
 * The control's action: asks the browser to keep the book for good (it may refuse: the book is
 * then kept until the browser needs the space), then downloads it.
 */
export async function makeBookAvailableOffline(): Promise<void> {
  set({ error: null });
  let offer = useOfflineBook.getState().offer;
  if (!offer) {
    try {
      offer = await fetchPackOffer();
    } catch (error) {
      set({ error: error instanceof ApiError ? error.message : 'The offline book cannot be downloaded now' });
      return;
    }
    set({ offer, unavailable: offer === null });
    if (!offer) return;
  }
  const persisted = (await navigator.storage?.persist?.().catch(() => false)) ?? false;
  await download(offer, persisted);
}

export function cancelDownload(): void {
  downloading?.controller.abort();
}

export async function removeOfflineBook(): Promise<void> {
  cancelDownload();
  await removePack();
  forgetLoadedPack();
  set({ status: 'absent', stored: null, error: null, progress: null });
}
