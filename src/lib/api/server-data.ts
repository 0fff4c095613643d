import { useEffect, useSyncExternalStore } from 'react';

/**
 * Data read from the server for a page, one way for every page: a promise per key (the request's
 * URL), which the page hands to React's `use()` inside a Suspense boundary (see
 * src/components/ServerData.tsx). The page only ever renders the promise of its current key, so a
 * reply to an earlier key that arrives late is never shown; and the earlier request is aborted.
 *
 * A failure is a value too (`Settled`), not a throw into an error boundary: a passage that does
 * not exist, or a server out of reach, is a page's ordinary state, not a crash to report.
 *
 * A key's promise lives while a mounted component holds it: once nothing holds it, a request
 * still under way is aborted and the entry dropped, so the next visit asks the server afresh.
 */
export type Load<T> = (signal: AbortSignal) => Promise<T>;

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Entry {
  promise: Promise<Settled<unknown>>;
  controller: AbortController;
  settled: boolean;
}

const entries = new Map<string, Entry>();
/** How many mounted components hold each key. */
const holders = new Map<string, number>();
/** Bumped when a key is refreshed, so that the components reading it render again. */
const versions = new Map<string, number>();
const listeners = new Set<() => void>();

function entryFor(key: string, load: Load<unknown>): Entry {
  const existing = entries.get(key);
  if (existing) return existing;
  const controller = new AbortController();
  const settle = (outcome: Settled<unknown>): Settled<unknown> => {
    entry.settled = true;
    return outcome;
  };
  const entry: Entry = {
    promise: load(controller.signal).then(
      (value) => settle({ ok: true, value }),
      (error: unknown) => settle({ ok: false, error }),
    ),
    controller,
    settled: false,
  };
  entries.set(key, entry);
  return entry;
}

/** Drops a key's entry, aborting its request when no reply has come yet. */
function drop(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  if (!entry.settled) entry.controller.abort();
}

function hold(key: string): () => void {
  holders.set(key, (holders.get(key) ?? 0) + 1);
  return () => {
    const left = (holders.get(key) ?? 1) - 1;
    if (left > 0) {
      holders.set(key, left);
      return;
    }
    holders.delete(key);
    // Not at once: StrictMode (and a remount in the same commit) lets go and holds again at once.
    queueMicrotask(() => {
      if (!holders.has(key)) drop(key);
    });
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Asks the server again for `key`: the old request, if any, is aborted, and every component that
 * reads the key renders with a new promise (its Suspense fallback shows until the reply).
 */
export function refreshServerData(key: string): void {
  drop(key);
  versions.set(key, (versions.get(key) ?? 0) + 1);
  for (const listener of listeners) listener();
}

/**
 * The promise of `key`'s data, loaded by `load` the first time it is asked for; it never rejects.
 * Call it in a component outside the Suspense boundary that reads the promise with `use()`: that
 * component commits while the data loads, and holds the key for as long as it shows it.
 */
export function useServerData<T>(key: string, load: Load<T>): Promise<Settled<T>> {
  const version = () => versions.get(key) ?? 0;
  useSyncExternalStore(subscribe, version, version);
  useEffect(() => hold(key), [key]);
  // The entry for a key is always made by the same loader: its value is a T.
  return entryFor(key, load).promise as Promise<Settled<T>>;
}

/** The message an error carries, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
