import { describe, expect, it } from 'vitest';
import { messageToPage, messageToWorker } from '../../src/features/pwa/worker-messages.ts';

describe('messages between the pages and the service worker', () => {
  it('reads each side’s own messages', () => {
    expect(messageToWorker({ type: 'SKIP_WAITING' })).toEqual({ type: 'SKIP_WAITING' });
    expect(messageToWorker({ type: 'FLUSH_OUTBOX' })).toEqual({ type: 'FLUSH_OUTBOX' });
    expect(messageToPage({ type: 'OUTBOX_CHANGED' })).toEqual({ type: 'OUTBOX_CHANGED' });
    expect(messageToPage({ type: 'OUTBOX_NEEDS_AUTH' })).toEqual({ type: 'OUTBOX_NEEDS_AUTH' });
  });

  it('ignores the other side’s messages and anything else', () => {
    expect(messageToWorker({ type: 'OUTBOX_CHANGED' })).toBeNull();
    expect(messageToPage({ type: 'SKIP_WAITING' })).toBeNull();
    for (const data of [null, undefined, 'OUTBOX_CHANGED', { type: 7 }, {}, { kind: 'OUTBOX_CHANGED' }]) {
      expect(messageToPage(data)).toBeNull();
      expect(messageToWorker(data)).toBeNull();
    }
  });
});
