/**
 * The session's public entry: what other features may use of it (docs/client.md). The reader
 * signed in, their tokens and type, kept across tabs; its pages are loaded by the app's routes.
 */
export { syncSessionAcrossTabs, useSession, type AuthTokens, type SessionState } from './session-store.ts';
export { DEFAULT_USER_TYPE, isUserType, USER_TYPES, type UserType } from './user-type.ts';
export { useSessionCheck } from './use-session-check.ts';
