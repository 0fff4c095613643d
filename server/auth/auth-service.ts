import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.ts';
import { findUser, normaliseUsername } from '../store/users.ts';
import * as sessions from '../store/sessions.ts';
import { clearThrottle, lockThrottle, readThrottle, writeThrottle } from '../store/throttle.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  afterFailure,
  retryAfterSeconds,
  type ThrottlePolicy,
} from './throttle-policy.ts';
import { hashRefreshToken, newRefreshToken, signAccessToken, verifyAccessToken } from './tokens.ts';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export interface AuthSettings {
  accessTokenTtlSeconds: number;
  refreshOverlapSeconds: number;
  sessionIdleSeconds: number;
  sessionAbsoluteSeconds: number;
  accountPolicy?: ThrottlePolicy;
  addressPolicy?: ThrottlePolicy;
}

export type LoginOutcome =
  | { kind: 'signed-in'; tokens: TokenPair }
  | { kind: 'rejected' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export interface Caller {
  username: string;
  sessionId: string;
}

/** Sign-in, refresh-token rotation, sign-out and access-token checks, over the store. */
export class AuthService {
  private readonly accountPolicy: ThrottlePolicy;
  private readonly addressPolicy: ThrottlePolicy;

  constructor(
    private readonly db: Db,
    private readonly key: Uint8Array,
    private readonly settings: AuthSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.accountPolicy = settings.accountPolicy ?? ACCOUNT_POLICY;
    this.addressPolicy = settings.addressPolicy ?? ADDRESS_POLICY;
  }

  async login(rawUsername: string, password: string, address: string): Promise<LoginOutcome> {
    const username = normaliseUsername(rawUsername);
    const keys = [`user:${username}`, `ip:${address}`];
    const now = this.now();
    const waits = await Promise.all(keys.map(async (key) => retryAfterSeconds(await readThrottle(this.db, key), now)));
    const wait = Math.max(...waits);
    if (wait > 0) return { kind: 'throttled', retryAfterSeconds: wait };

    const user = await findUser(this.db, username);
    // An unknown or disabled user costs the same argon2id work as a wrong password.
    const hash = user && !user.disabled ? user.password_hash : await dummyPasswordHash();
    const passwordMatches = await verifyPassword(hash, password);
    if (!user || user.disabled || !passwordMatches) {
      await this.recordFailure(keys);
      return { kind: 'rejected' };
    }
    await clearThrottle(this.db, keys[0]!);
    return { kind: 'signed-in', tokens: await this.startSession(user.username) };
  }

  /** Rotates a refresh token. Null means the caller must sign in again. */
  async refresh(refreshToken: string): Promise<TokenPair | null> {
    const tokenHash = hashRefreshToken(refreshToken);
    const now = new Date(this.now());
    const outcome = await this.db.transaction(async (tx) => {
      const seen = await sessions.findRefreshToken(tx, tokenHash);
      if (!seen) return null;
      const session = await sessions.lockSession(tx, seen.session_id);
      if (!session || !this.isLive(session, now)) return null;
      // Read again under the session's lock: a concurrent refresh may have rotated it.
      const token = await sessions.findRefreshToken(tx, tokenHash);
      if (!token) return null;
      if (token.rotated_at) {
        const sinceRotation = now.getTime() - token.rotated_at.getTime();
        if (sinceRotation > this.settings.refreshOverlapSeconds * 1000) {
          await sessions.revokeSession(tx, session.id, now, 'refresh token reuse');
          return 'reuse' as const;
        }
      } else {
        await sessions.markRotated(tx, tokenHash, now);
      }
      const next = newRefreshToken();
      await sessions.insertRefreshToken(tx, hashRefreshToken(next), session.id, now);
      await sessions.touchSession(tx, session.id, now);
      return { username: session.username, sessionId: session.id, refreshToken: next };
    });
    if (outcome === null || outcome === 'reuse') return null;
    return this.tokenPair(outcome.username, outcome.sessionId, outcome.refreshToken);
  }

  async logout(sessionId: string): Promise<void> {
    await sessions.revokeSession(this.db, sessionId, new Date(this.now()), 'logout');
  }

  /** The caller behind an access token, if the token is valid and its session still live. */
  async authenticate(accessToken: string): Promise<Caller | null> {
    const now = new Date(this.now());
    const claims = await verifyAccessToken(this.key, accessToken, now);
    if (!claims) return null;
    const session = await sessions.findSession(this.db, claims.sessionId);
    if (!session || session.username !== claims.username || !this.isLive(session, now)) return null;
    return claims;
  }

  private isLive(session: sessions.SessionRow, now: Date): boolean {
    return (
      session.revoked_at === null &&
      session.expires_at.getTime() > now.getTime() &&
      session.last_used_at.getTime() + this.settings.sessionIdleSeconds * 1000 > now.getTime()
    );
  }

  private async startSession(username: string): Promise<TokenPair> {
    const now = new Date(this.now());
    const sessionId = randomUUID();
    const refreshToken = newRefreshToken();
    await this.db.transaction(async (tx) => {
      const expiresAt = new Date(now.getTime() + this.settings.sessionAbsoluteSeconds * 1000);
      await sessions.insertSession(tx, { id: sessionId, username, now, expiresAt });
      await sessions.insertRefreshToken(tx, hashRefreshToken(refreshToken), sessionId, now);
    });
    return this.tokenPair(username, sessionId, refreshToken);
  }

  private async tokenPair(username: string, sessionId: string, refreshToken: string): Promise<TokenPair> {
    const ttl = this.settings.accessTokenTtlSeconds;
    const accessToken = await signAccessToken(this.key, { username, sessionId }, Math.floor(this.now() / 1000), ttl);
    return { access_token: accessToken, refresh_token: refreshToken, token_type: 'bearer', expires_in: ttl };
  }

  private async recordFailure(keys: string[]): Promise<void> {
    const now = this.now();
    const policies = [this.accountPolicy, this.addressPolicy];
    await this.db.transaction(async (tx) => {
      for (const [i, key] of keys.entries()) {
        const state = await lockThrottle(tx, key);
        await writeThrottle(tx, key, afterFailure(state, now, policies[i]!));
      }
    });
  }
}
