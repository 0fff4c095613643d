import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import { backoffMs, outboxKey, type DeadLetter, type OutboxEntry, type OutboxItem } from './outbox-rules.ts';

/**
 * The feedback outbox in IndexedDB, shared by the page and the service worker: votes waiting to
 * be sent, in the order given, and the dead letters the server refused.
 */
export class Outbox {
  private readonly pending: UseStore;
  private readonly dead: UseStore;

  constructor(name = 'alchemy-feedback') {
    this.pending = createStore(`${name}-outbox`, 'votes');
    this.dead = createStore(`${name}-dead-letters`, 'votes');
  }

  async add(item: OutboxItem, author: string, now: number): Promise<OutboxEntry> {
    const entry: OutboxEntry = { key: outboxKey(now, item.client_id), item, author, queuedAt: now, attempts: 0, nextAttemptAt: now };
    await set(entry.key, entry, this.pending);
    return entry;
  }

  /** Waiting votes, oldest first. */
  async list(): Promise<OutboxEntry[]> {
    return (await entries<string, OutboxEntry>(this.pending)).map(([, entry]) => entry);
  }

  async has(key: string): Promise<boolean> {
    return (await get(key, this.pending)) !== undefined;
  }

  async remove(key: string): Promise<void> {
    await del(key, this.pending);
  }

  /** Another failed attempt: the vote waits its back-off, or as long as the server asked (`waitMs`), if longer. */
  async postpone(entry: OutboxEntry, reason: string, now: number, waitMs?: number): Promise<void> {
    const attempts = entry.attempts + 1;
    await set(entry.key, { ...entry, attempts, nextAttemptAt: now + backoffMs(attempts, waitMs), lastError: reason }, this.pending);
  }

  async moveToDeadLetters(entry: OutboxEntry, reason: string, now: number): Promise<void> {
    const letter: DeadLetter = { key: entry.key, item: entry.item, author: entry.author, reason, failedAt: now };
    await set(entry.key, letter, this.dead);
    await del(entry.key, this.pending);
  }

  async deadLetters(): Promise<DeadLetter[]> {
    return (await entries<string, DeadLetter>(this.dead)).map(([, letter]) => letter);
  }

  async dismissDeadLetter(key: string): Promise<void> {
    await del(key, this.dead);
  }
}
