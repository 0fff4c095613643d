import { listenToWorker } from '../pwa/index.ts';
import { useSession } from '../session/index.ts';
import { flushOutbox, outbox } from './flush-outbox.ts';
import { scheduleFlushes } from './flush-schedule.ts';
import { mirrorSessionForWorker } from './mirror-session.ts';
import { refreshOutboxStatus } from './outbox-status.ts';

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
