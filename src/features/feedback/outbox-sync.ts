import { listenToWorker } from '../pwa/index.ts';
import { useSession } from '../session/index.ts';
import { flushOutbox, outbox } from './flush-outbox.ts';
import { mirrorCredentials } from './delivery.ts';
import { refreshOutboxStatus, useOutboxStatus, type OutboxStatus } from './outbox-status.ts';

/**
 * Keeps the outbox moving from the page (the app starts it once): flushes on its schedule,
 * mirrors the session's token for the worker, and answers the worker's messages. Returns a
 * function that stops it all.
 */
export function startOutboxSync(): () => void {
  const flushes = {
    due: () => void flushOutbox().catch(() => undefined),
    now: () => void flushOutbox({ now: true }).catch(() => undefined),
  };
  const stopMirror = mirrorSessionForWorker();
  const stopListening = listenToWorker((message) => {
    switch (message.type) {
      case 'OUTBOX_CHANGED':
        void refreshOutboxStatus(outbox);
        break;
      case 'OUTBOX_NEEDS_AUTH':
        if (useSession.getState().isAuthenticated) {
          useSession
            .getState()
            .refreshToken()
            .then(flushes.now, () => undefined);
        }
        break;
    }
  });
  const stopFlushes = scheduleFlushes(flushes);
  // Which votes are the reader's own changes with who is signed in.
  const stopFollowingReader = useSession.subscribe((state, previous) => {
    if (state.user !== previous.user) void refreshOutboxStatus(outbox);
  });
  return () => {
    stopFollowingReader();
    stopFlushes();
    stopListening();
    stopMirror();
  };
}

/** Where Background Sync is missing, the page tries again this often while votes wait. */
export const FLUSH_INTERVAL_MS = 15_000;

export interface Flushes {
  /** Sends what is due (backed-off votes wait). */
  due: () => void;
  /** Sends everything at once (the reader's or the network's doing). */
  now: () => void;
}

/** How long after a vote falls due the page tries it: the timer's slack, so that it is not early. */
export const DUE_SLACK_MS = 50;

/**
 * When the page flushes the outbox: at once when the app starts, when the browser comes back
 * online and when a reader signs in; when the first waiting vote falls due (its back-off over);
 * and every 15 s while votes wait (for votes another tab or the worker backed off meanwhile).
 * The start does not wait out a back-off built up while offline (up to 5 minutes): a reader
 * opening the app is the moment to try. Returns a function that stops it.
 */
export function scheduleFlushes(flush: Flushes): () => void {
  const unsubscribe = useSession.subscribe((state, previous) => {
    if (state.authTokens && !previous.authTokens) flush.now();
  });
  window.addEventListener('online', flush.now);
  const timer = window.setInterval(() => {
    if (useOutboxStatus.getState().pending > 0) flush.due();
  }, FLUSH_INTERVAL_MS);
  let dueTimer: number | undefined;
  // Only for a vote still backing off: one already due that the last flush left (waiting for a
  // token, or for its reader to sign in) is the 15 s check's, or this would try it without end.
  const armForDue = ({ nextAttemptAt }: OutboxStatus) => {
    window.clearTimeout(dueTimer);
    const wait = nextAttemptAt === null ? 0 : nextAttemptAt - Date.now();
    dueTimer = wait > 0 ? window.setTimeout(flush.due, wait + DUE_SLACK_MS) : undefined;
  };
  const stopWatching = useOutboxStatus.subscribe(armForDue);
  armForDue(useOutboxStatus.getState());
  flush.now();
  return () => {
    unsubscribe();
    stopWatching();
    window.clearTimeout(dueTimer);
    window.removeEventListener('online', flush.now);
    window.clearInterval(timer);
  };
}

function mirror(): void {
  const { authTokens, user } = useSession.getState();
  void mirrorCredentials(authTokens && user ? { access: authTokens.access, username: user } : null).catch(() => undefined);
}

/**
 * Keeps the worker's copy of the current access token (delivery.ts) in step with the
 * session: now, and whenever the tokens change. Returns a function that stops it.
 */
export function mirrorSessionForWorker(): () => void {
  mirror();
  return useSession.subscribe((state, previous) => {
    if (state.authTokens !== previous.authTokens) mirror();
  });
}
