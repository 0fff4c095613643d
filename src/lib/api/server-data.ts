import { useEffect, useSyncExternalStore } from 'react';

/**
 * Data read from the server, one way for every read: a promise per key (the request it stands
 * for), made once however often the key is asked for while it loads. A failure is a value too
 * (`Settled`), not a throw into an error boundary: a passage that does not exist, or a server out
 * of reach, is a page's ordinary state, not a crash to report. Two ways to ask:
 *
 * - While rendering (`useServerData`): the page hands the promise to React's `use()` inside a
 *   Suspense boundary (see src/components/ServerData.tsx). It only ever renders the promise of its
 *   current key, so a reply to an earlier key that arrives late is never shown. A key's promise
 *   lives while a mounted component holds it: once nothing holds it, a request still under way is
 *   aborted and the entry dropped, so the next visit asks the server afresh.
 * - From an event (`requestServerData`): a search sent from a form, whose answer its caller keeps.
 *   The entry lives while the request is under way, and is dropped as its answer arrives.
 */
export type Load<T> = (signal: AbortSignal) => Promise<T>;

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Entry {
  promise: Promise<Settled<unknown>>;
  controller: AbortController;
  settled: boolean;
  /** When its request was sent (Date.now()). */
  sentAt: number;
}

const entries = new Map<string, Entry>();
/** How many mounted components hold each key. */
const holders = new Map<string, number>();
/** Bumped when a key is refreshed, so that the components reading it render again. */
const versions = new Map<string, number>();
const listeners = new Set<() => void>();

/** `key`'s entry, its request sent by `load` when there is none; dropped as it settles when `once`. */
function entryFor(key: string, load: Load<unknown>, once = false): Entry {
  const existing = entries.get(key);
  if (existing) return existing;
  const controller = new AbortController();
  const settle = (outcome: Settled<unknown>): Settled<unknown> => {
    entry.settled = true;
    if (once && entries.get(key) === entry) entries.delete(key);
    return outcome;
  };
  const entry: Entry = {
    promise: load(controller.signal).then(
      (value) => settle({ ok: true, value }),
      (error: unknown) => settle({ ok: false, error }),
    ),
    controller,
    settled: false,
    sentAt: Date.now(),
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

/**
 * The promise of `key`'s data, asked for from an event rather than while rendering; it never
 * rejects. Asked again while its request is under way, the key gets that request's promise, so a
 * double press sends one request; but once the request has gone `stalledAfterMs` without an
 * answer, it is taken for stalled: aborted, and sent again. The entry is dropped as its answer
 * arrives: the caller keeps the value, and the next ask goes to the server afresh.
 */
export function requestServerData<T>(key: string, load: Load<T>, { stalledAfterMs }: { stalledAfterMs: number }): Promise<Settled<T>> {
  const sent = entries.get(key);
  if (sent && Date.now() - sent.sentAt >= stalledAfterMs) drop(key);
  // The entry for a key is always made by the same loader: its value is a T.
  return entryFor(key, load, true).promise as Promise<Settled<T>>;
}

/** The message an error carries, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
