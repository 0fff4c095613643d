/** The Background Sync tag under which the outbox is replayed. */
export const SYNC_TAG = 'feedback-outbox';
