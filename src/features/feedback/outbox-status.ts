import { create } from 'zustand';
import { useSession } from '../session/index.ts';
import type { DeadLetter, OutboxEntry } from './outbox-rules.ts';
import type { Outbox } from './outbox.ts';
import { isSavedChange } from './saved-change.ts';

/** What the reader sees of the outbox: how many votes wait, and which the server refused. */
export interface OutboxStatus {
  /** Who the counts are for: the signed-in reader, or `null` when nobody is signed in. */
  reader: string | null;
  /**
   * Votes waiting to be sent: the reader's own, or every one when nobody is signed in (other
   * readers' votes wait for them to sign in here again).
   */
  pending: number;
  /** How many of those are changes to saved passages rather than votes (absent: none). */
  savedPending?: number;
  /** Refused votes the signed-in reader gave (another reader's are theirs alone to see). */
  deadLetters: DeadLetter[];
  /**
   * When the first of those waiting votes (the one a replay tries first; the votes behind it go
   * when it does) is due to be tried again (null: none waits).
   */
  nextAttemptAt: number | null;
}

export const useOutboxStatus = create<OutboxStatus>()(() => ({ reader: null, pending: 0, deadLetters: [], nextAttemptAt: null }));

/** The outbox as one reader sees it (`null`: nobody signed in). */
export function statusFor(reader: string | null, waiting: OutboxEntry[], refused: DeadLetter[]): OutboxStatus {
  const own = reader === null ? waiting : waiting.filter((entry) => entry.author === reader);
  return {
    reader,
    pending: own.length,
    savedPending: own.filter((entry) => isSavedChange(entry.item)).length,
    nextAttemptAt: own[0]?.nextAttemptAt ?? null,
    // Letters kept by an older version name no author: shown to whoever is here, as they were.
    deadLetters: refused.filter((letter) => letter.author === undefined || letter.author === reader),
  };
}

export async function refreshOutboxStatus(outbox: Outbox): Promise<void> {
  const [waiting, refused] = await Promise.all([outbox.list(), outbox.deadLetters()]);
  useOutboxStatus.setState(statusFor(useSession.getState().user, waiting, refused));
}
