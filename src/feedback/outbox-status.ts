import { create } from 'zustand';
import type { DeadLetter } from './outbox-rules.ts';
import type { Outbox } from './outbox.ts';

/** What the reader sees of the outbox: how many votes wait, and which the server refused. */
export interface OutboxStatus {
  pending: number;
  deadLetters: DeadLetter[];
}

export const useOutboxStatus = create<OutboxStatus>()(() => ({ pending: 0, deadLetters: [] }));

export async function refreshOutboxStatus(outbox: Outbox): Promise<void> {
  const [pending, deadLetters] = await Promise.all([outbox.list(), outbox.deadLetters()]);
  useOutboxStatus.setState({ pending: pending.length, deadLetters });
}
