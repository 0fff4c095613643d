/** What the app knows of the offline book it keeps, without reading the book itself. */
export interface StoredPackInfo {
  version: string;
  /** Bytes it takes here. */
  storedBytes: number;
  /** The model_type of each model it answers with. */
  models: string[];
  /** When it was saved (ms since the epoch). */
  savedAt: number;
  /** Whether the browser promised to keep it (navigator.storage.persist()). */
  persisted: boolean;
}

/** The pack's bytes, with the version they are (the worker reads only this). */
export interface StoredPack {
  version: string;
  bytes: ArrayBuffer;
}

/**
 * The offline book's own database, so that removing it never touches the outbox's votes. Plain
 * IndexedDB rather than idb-keyval: a route chunk importing idb-keyval made the bundler split it
 * out of the app's first chunk into one of its own, and the first load grew by 90 bytes.
 */
const DATABASE = 'alchemy-offline-book';
const STORE = 'pack';

/** A request's outcome; a transaction's completion (its result undefined), or its abort. */
function settled<T>(request: IDBRequest<T> | IDBTransaction): Promise<T> {
  return new Promise((resolve, reject) => {
    if (request instanceof IDBTransaction) {
      request.oncomplete = () => resolve(undefined as T);
      request.onabort = request.onerror = () => reject(request.error ?? new DOMException('The transaction was aborted', 'AbortError'));
    } else {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }
  });
}

let opened: Promise<IDBDatabase> | undefined;

function database(): Promise<IDBDatabase> {
  if (!opened) {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    opened = settled(request);
    opened.then(
      (db) => {
        db.onclose = () => (opened = undefined);
        // Another tab (or the browser clearing the site) wants the database: let go of it.
        db.onversionchange = () => {
          db.close();
          opened = undefined;
        };
      },
      () => (opened = undefined),
    );
  }
  return opened;
}

async function inStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<T>): Promise<T> {
  const db = await database();
  return work(db.transaction(STORE, mode).objectStore(STORE));
}

/**
 * Keeps a downloaded pack, whole: its bytes and its description are written in one IndexedDB
 * transaction, which replaces the pack kept before (if any) only when it commits. A write that
 * fails (no space left) leaves the earlier pack and its description as they were, and nothing of
 * the new one: never half a pack, nor one version's description over another's bytes.
 */
export async function savePack(info: StoredPackInfo, bytes: ArrayBuffer): Promise<void> {
  const pack: StoredPack = { version: info.version, bytes };
  await inStore('readwrite', (store) => {
    try {
      store.put(pack, 'bytes');
      store.put(info, 'info');
    } catch (error) {
      // A value the store cannot take throws here, after the first was queued: neither is kept.
      store.transaction.abort();
      throw error;
    }
    return settled(store.transaction);
  });
}

/** The kept pack's description, or undefined when there is none (never downloaded, removed, or cleared by the browser). */
export async function readPackInfo(): Promise<StoredPackInfo | undefined> {
  return inStore('readonly', (store) => settled(store.get('info') as IDBRequest<StoredPackInfo | undefined>));
}

/** The kept pack's bytes, with their version. */
export async function readPack(): Promise<StoredPack | undefined> {
  return inStore('readonly', (store) => settled(store.get('bytes') as IDBRequest<StoredPack | undefined>));
}

export async function removePack(): Promise<void> {
  await inStore('readwrite', async (store) => {
    store.clear();
    await settled(store.transaction);
  });
}

/**
 * The book's text as GET /api/book serves it, kept beside the pack so that the reader reads every
 * chapter with no network. Kept as received (the reader checks its shape when it reads it).
 */
export async function saveBookText(book: unknown): Promise<void> {
  await inStore('readwrite', (store) => {
    store.put(book, 'book');
    return settled(store.transaction);
  });
}

/** The book's text kept on this device, or undefined when none is. */
export async function readBookText(): Promise<unknown> {
  return inStore('readonly', (store) => settled(store.get('book') as IDBRequest<unknown>));
}
