import { randomUUID } from 'node:crypto';
import type { TokenReply } from '../../../contract/api-schemas.ts';
import type { Db, Transaction } from '../../platform/store/db.ts';
import { findUser, normaliseUsername } from './sql/users.ts';
import * as sessions from './sql/sessions.ts';
import { clearThrottle, lockThrottle, PENDING_FOR_MS, settleFailures, writeThrottle, type LockedThrottle } from '../../platform/limits/throttle.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  afterFailure,
  afterRefund,
  retryAfterSeconds,
  type ThrottlePolicy,
} from './throttle-policy.ts';
import { InvitationService } from './invitations.ts';
import { hashRefreshToken, newRefreshToken, signAccessToken, verifyAccessToken, type KeyRing } from './tokens.ts';

export interface AuthSettings {
  accessTokenTtlSeconds: number;
  refreshOverlapSeconds: number;
  sessionIdleSeconds: number;
  sessionAbsoluteSeconds: number;
  accountPolicy?: ThrottlePolicy;
  addressPolicy?: ThrottlePolicy;
  /** Tries a minute per address at an invitation (INVITE_RATE_LIMIT); 0: no limit. */
  inviteRateLimit?: number;
}

export type LoginOutcome =
  | { kind: 'signed-in'; tokens: TokenReply }
  | { kind: 'rejected' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export interface Caller {
  username: string;
  sessionId: string;
}

/**
 * How long a sign-in waits, between looks, for attempts still being checked to unlock the limit
 * they filled: 3.1 s in all, about what 30 argon2id checks queued on two cores take.
 */
const SETTLE_WAITS_MS = [100, 200, 400, 800, 800, 800];

/** Whether the attempts in flight on a locked address, all succeeding, would bring it under its free failures. */
function canBeRefunded(address: LockedThrottle, policy: ThrottlePolicy): boolean {
  return address.pending > 0 && address.state !== undefined && address.state.failures - address.pending < policy.freeFailures;
}

/** Sign-in, refresh-token rotation, sign-out and access-token checks, over the store. */
export class AuthService {
  private readonly accountPolicy: ThrottlePolicy;
  private readonly addressPolicy: ThrottlePolicy;
  /** Invitation links: checked, then taken to make an account and sign in (invitations.ts). */
  readonly invitations: InvitationService;

  constructor(
    private readonly db: Db,
    private readonly keys: KeyRing,
    private readonly settings: AuthSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.accountPolicy = settings.accountPolicy ?? ACCOUNT_POLICY;
    this.addressPolicy = settings.addressPolicy ?? ADDRESS_POLICY;
    this.invitations = new InvitationService(db, (username, hash) => this.startSession(username, hash), now, settings.inviteRateLimit);
  }

  async login(rawUsername: string, password: string, address: string): Promise<LoginOutcome> {
    const username = normaliseUsername(rawUsername);
    const accountKey = `user:${username}`;
    const addressKey = `ip:${address}`;
    const wait = await this.reserveAttempt(accountKey, addressKey);
    if (wait > 0) return { kind: 'throttled', retryAfterSeconds: wait };

    let user: Awaited<ReturnType<typeof findUser>>;
    let checked = false;
    let passwordMatches = false;
    try {
      user = await findUser(this.db, username);
      // An unknown or disabled user costs the same argon2id work as a wrong password.
      const hash = user && !user.disabled ? user.password_hash : await dummyPasswordHash();
      passwordMatches = await verifyPassword(hash, password);
      checked = true;
    } finally {
      // The failure was counted when the attempt was reserved. A password checked and refused:
      // it stands. No password checked (the database failed first): it is given back, so that
      // readers signing in while the database falters are not locked out for it afterwards.
      // Should the store fail here too, the count stops pending in 10 s anyway.
      if (!checked) await this.refundAttempt(accountKey, addressKey).catch(() => undefined);
      else if (!passwordMatches) await settleFailures(this.db, [accountKey, addressKey]).catch(() => undefined);
    }
    if (!user || user.disabled || !passwordMatches) return { kind: 'rejected' };
    try {
      await this.db.transaction(async (tx) => {
        await clearThrottle(tx, accountKey);
        await this.refundFailure(tx, addressKey, this.addressPolicy);
      });
    } catch (error) {
      // The right password, but the count could not be cleared: give back at least this attempt.
      await this.refundAttempt(accountKey, addressKey).catch(() => undefined);
      throw error;
    }
    const tokens = await this.startSession(user.username, user.password_hash);
    return tokens ? { kind: 'signed-in', tokens } : { kind: 'rejected' };
  }

  /** Takes back the failure an attempt counted on both keys (account first, as everywhere). */
  private async refundAttempt(accountKey: string, addressKey: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.refundFailure(tx, accountKey, this.accountPolicy);
      await this.refundFailure(tx, addressKey, this.addressPolicy);
    });
  }

  /** One failure fewer on the key, and one attempt fewer pending. */
  private async refundFailure(tx: Transaction, key: string, policy: ThrottlePolicy): Promise<void> {
    const locked = await lockThrottle(tx, key, this.now());
    const state = afterRefund(locked.state, policy);
    if (state) await writeThrottle(tx, key, state, locked.pending - 1);
  }

  /** Rotates a refresh token. Null means the caller must sign in again. */
  async refresh(refreshToken: string): Promise<TokenReply | null> {
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
    const claims = await verifyAccessToken(this.keys, accessToken, now);
    if (!claims) return null;
    return (await this.sessionLive(claims, now)) ? claims : null;
  }

  /** Whether `caller`'s session is live: looked up in the store (authenticate's second half). */
  async sessionLive(caller: Caller, now = new Date(this.now())): Promise<boolean> {
    const session = await sessions.findSession(this.db, caller.sessionId);
    return session !== undefined && session.username === caller.username && this.isLive(session, now);
  }

  /**
   * The caller behind an access token whose signature and time hold, its session not looked up:
   * for a route whose statement checks the session as it acts (liveSession), one round trip
   * to the store instead of two. Anything else uses authenticate.
   */
  async tokenCaller(accessToken: string): Promise<Caller | null> {
    return verifyAccessToken(this.keys, accessToken, new Date(this.now()));
  }

  /** What a statement acting for `caller` checks, in itself, to hold them to authenticate's rules (sessions.ts: liveSessionSql). */
  liveSession(caller: Caller): sessions.LiveSession {
    return { sessionId: caller.sessionId, username: caller.username, now: new Date(this.now()), idleSeconds: this.settings.sessionIdleSeconds };
  }

  private isLive(session: sessions.SessionRow, now: Date): boolean {
    return (
      session.revoked_at === null &&
      session.expires_at.getTime() > now.getTime() &&
      session.last_used_at.getTime() + this.settings.sessionIdleSeconds * 1000 > now.getTime()
    );
  }

  /**
   * Opens a session for the account whose password was checked against `checkedHash`, if it still
   * stands as it was checked. The check takes an argon2id hash's time, and meanwhile the password
   * may have been changed, the account disabled or removed (npm run users): their sessions are
   * ended then, and a session opened after that must not outlive them. Null: sign in again.
   */
  private async startSession(username: string, checkedHash: string): Promise<TokenReply | null> {
    const now = new Date(this.now());
    const sessionId = randomUUID();
    const refreshToken = newRefreshToken();
    const opened = await this.db.transaction(async (tx) => {
      const account = await findUser(tx, username, { forShare: true });
      if (!account || account.disabled || account.password_hash !== checkedHash) return false;
      const expiresAt = new Date(now.getTime() + this.settings.sessionAbsoluteSeconds * 1000);
      await sessions.insertSession(tx, { id: sessionId, username, now, expiresAt });
      await sessions.insertRefreshToken(tx, hashRefreshToken(refreshToken), sessionId, now);
      return true;
    });
    return opened ? this.tokenPair(username, sessionId, refreshToken) : null;
  }

  private async tokenPair(username: string, sessionId: string, refreshToken: string): Promise<TokenReply> {
    const ttl = this.settings.accessTokenTtlSeconds;
    const accessToken = await signAccessToken(await this.keys.signingKey(), { username, sessionId }, Math.floor(this.now() / 1000), ttl);
    return { access_token: accessToken, refresh_token: refreshToken, token_type: 'bearer', expires_in: ttl };
  }

  /**
   * Counts this attempt as a failure of the account and of the address before any password is
   * checked, under both rows' locks (account first, everywhere): once the limit is reached, no
   * parallel attempt on any instance gets a password checked until the back-off ends. Returns the
   * seconds to wait, 0 when the attempt may go ahead.
   *
   * A key locked only while some of its counted attempts are still being checked may be unlocked
   * by them in a moment (a class signing in at once from one address, all with the right
   * password): the attempt waits for them (SETTLE_WAITS_MS) before it is refused.
   */
  private async reserveAttempt(accountKey: string, addressKey: string): Promise<number> {
    for (let tries = 0; ; tries++) {
      const { wait, settling } = await this.db.transaction(async (tx) => {
        const now = this.now();
        const account = await lockThrottle(tx, accountKey, now);
        const address = await lockThrottle(tx, addressKey, now);
        const locking = [account, address].filter((key) => retryAfterSeconds(key.state, now) > 0);
        if (locking.length > 0) {
          const wait = Math.max(...locking.map((key) => retryAfterSeconds(key.state, now)));
          // Worth waiting only if the attempts in flight, by succeeding, would lift every lock:
          // any success clears the account; the address, once its count is back under the free ones.
          const settling = locking.every((key) => (key === account ? key.pending > 0 : canBeRefunded(key, this.addressPolicy)));
          return { wait, settling };
        }
        await this.countAttempt(tx, accountKey, account, now, this.accountPolicy);
        await this.countAttempt(tx, addressKey, address, now, this.addressPolicy);
        return { wait: 0, settling: false };
      });
      if (wait === 0 || !settling || tries >= SETTLE_WAITS_MS.length) return wait;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_WAITS_MS[tries]));
    }
  }

  private async countAttempt(tx: Transaction, key: string, locked: LockedThrottle, now: number, policy: ThrottlePolicy): Promise<void> {
    const state = afterFailure(locked.state, now, policy);
    // A new window starts a new count: whatever was pending in the old one no longer matters.
    await writeThrottle(tx, key, state, state.failures === 1 ? 1 : locked.pending + 1, now + PENDING_FOR_MS);
  }
}
