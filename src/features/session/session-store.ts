import { create } from 'zustand';
import { requestRefresh } from './auth-api.ts';
import { ApiError } from '../../lib/api/api-error.ts';
import { provideSessionTokens } from '../../lib/api/http-client.ts';
import { recordServerClock, serverNow } from './server-clock.ts';
import { singleFlight } from '../../lib/single-flight.ts';
import { needsRefreshOnDemand, tokenSubject } from './token-timing.ts';
import { readStored, STORAGE_KEYS, writeStored } from '../../lib/browser-storage.ts';
import { DEFAULT_USER_TYPE, isUserType, type UserType } from './user-type.ts';

export interface AuthTokens {
  access: string;
  refresh: string;
}

export interface SessionState {
  user: string | null;
  authTokens: AuthTokens | null;
  userType: UserType;
  isAuthenticated: boolean;
  /**
   * Signs in with the tokens the server gave (sign-in.ts, an accepted invitation); `name` when
   * they name nobody. Signing in and out are asked of the server elsewhere (sign-in.ts,
   * invitation-api.ts): only their pages load that code.
   */
  startSession(tokens: { access_token: string; refresh_token: string }, name: string): void;
  /** Rotates the tokens; one refresh at a time. The server refusing it signs the reader out. */
  refreshToken(): Promise<string>;
  setUserType(userType: UserType): void;
  /** The access token, refreshed first when under 30 s remain. */
  getAccessToken(): Promise<string>;
  /** Forgets the session in this browser. */
  clearSession(): void;
}

function parseTokens(raw: string | null): AuthTokens | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<AuthTokens>;
    return typeof value.access === 'string' && typeof value.refresh === 'string' ? { access: value.access, refresh: value.refresh } : null;
  } catch {
    return null;
  }
}

function sessionFrom(tokens: AuthTokens | null) {
  return { authTokens: tokens, isAuthenticated: tokens !== null, user: tokens ? tokenSubject(tokens.access) : null };
}

function persistTokens(tokens: AuthTokens | null): void {
  writeStored(STORAGE_KEYS.authTokens, tokens ? JSON.stringify(tokens) : null);
}

export const useSession = create<SessionState>()((set, get) => {
  const storedType = readStored(STORAGE_KEYS.userType);

  const setTokens = (tokens: AuthTokens | null) => {
    persistTokens(tokens);
    set(sessionFrom(tokens));
  };

  const refreshOnce = singleFlight(async () => {
    const tokens = get().authTokens;
    if (!tokens?.refresh) {
      setTokens(null);
      throw new ApiError('unauthorized', 'No refresh token');
    }
    try {
      const reply = await requestRefresh(tokens.refresh);
      recordServerClock(reply.access_token);
      setTokens({ access: reply.access_token, refresh: reply.refresh_token ?? tokens.refresh });
      return reply.access_token;
    } catch (error) {
      // No answer, a 5xx or a 429 is not a refusal: the reader stays signed in.
      if (error instanceof ApiError && !error.endsSession) throw error;
      // Another tab may have rotated the token a moment ago: take its tokens if they are newer.
      const shared = parseTokens(readStored(STORAGE_KEYS.authTokens));
      if (shared && shared.refresh !== tokens.refresh) {
        set(sessionFrom(shared));
        return shared.access;
      }
      setTokens(null);
      throw error;
    }
  });

  return {
    ...sessionFrom(parseTokens(readStored(STORAGE_KEYS.authTokens))),
    userType: isUserType(storedType) ? storedType : DEFAULT_USER_TYPE,

    startSession({ access_token, refresh_token }, name) {
      recordServerClock(access_token);
      setTokens({ access: access_token, refresh: refresh_token });
      set({ user: tokenSubject(access_token) ?? name });
    },

    refreshToken: refreshOnce,

    setUserType(userType) {
      writeStored(STORAGE_KEYS.userType, userType);
      set({ userType });
    },

    async getAccessToken() {
      const tokens = get().authTokens;
      if (!tokens) throw new ApiError('unauthorized', 'No refresh token');
      return needsRefreshOnDemand(tokens.access, serverNow()) ? refreshOnce() : tokens.access;
    },

    clearSession: () => setTokens(null),
  };
});

// The shared HTTP client sends the tokens this store holds, and refreshes them through it.
provideSessionTokens({
  accessToken: () => useSession.getState().getAccessToken(),
  held: () => useSession.getState().authTokens,
  refresh: () => useSession.getState().refreshToken(),
  clear: () => useSession.getState().clearSession(),
  readerOf: tokenSubject,
});

/** Signing in or out in one tab updates every open tab. */
export function syncSessionAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.authTokens || event.key === null) {
      useSession.setState(sessionFrom(parseTokens(readStored(STORAGE_KEYS.authTokens))));
    }
    if (event.key === STORAGE_KEYS.userType && isUserType(event.newValue)) {
      useSession.setState({ userType: event.newValue });
    }
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
