import { createStore, del, get, set } from 'idb-keyval';

/**
 * The page keeps the current access token (never the refresh token) where the service worker
 * can read it, so that a replay sends the token live at send time, not one frozen at queue time.
 */
export interface MirroredCredentials {
  access: string;
  username: string;
}

const store = () => createStore('alchemy-credentials', 'current');
let cached: ReturnType<typeof store> | undefined;
const credentialsStore = () => (cached ??= store());

export async function mirrorCredentials(credentials: MirroredCredentials | null): Promise<void> {
  if (credentials) await set('session', credentials, credentialsStore());
  else await del('session', credentialsStore());
}

export async function readCredentials(): Promise<MirroredCredentials | null> {
  return (await get<MirroredCredentials>('session', credentialsStore())) ?? null;
}
