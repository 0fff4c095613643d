import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../platform/store/db.ts';
import { addSigningKey, deleteKeysReplacedBefore, ensureFirstSigningKey, listSigningKeys, type StoredKey } from './sql/signing-keys.ts';
import { MAX_CLOCK_SKEW_SECONDS, type KeyRing, type SigningKey } from './tokens.ts';

// A plain Uint8Array: jose checks the key's type against the running realm's Uint8Array.
const decode = (key: StoredKey) => new Uint8Array(Buffer.from(key.secret, 'base64url'));

/** One configured secret (JWT_SECRET): it signs every token and verifies its own, and tokens without a kid. */
export function staticKeyRing(secret: Uint8Array): KeyRing {
  const key = { kid: `static-${createHash('sha256').update(secret).digest('base64url').slice(0, 12)}`, secret };
  return {
    signingKey: async () => key,
    verifyingKey: async (kid) => (kid === undefined || kid === key.kid ? key.secret : null),
  };
}

export interface StoredKeyRingOptions {
  /** The longest access-token lifetime: a replaced key verifies this long (plus margins) after. */
  accessTokenTtlSeconds: number;
  now?: () => number;
  /** How often the ring reads the store again, to sign with a key another process added. */
  reloadIntervalMs?: number;
}

/** How soon after an unknown `kid` the store is read again (a token signed with a key just added). */
const UNKNOWN_KID_RELOAD_MS = 2_000;

/**
 * The keys kept in the store, shared by every instance on it. The newest key signs; a key a newer
 * one replaced verifies until no token it signed can still be valid, then it retires.
 */
export class StoredKeyRing implements KeyRing {
  /** Oldest first, secrets decoded once per read of the store (every request verifies with one). */
  private keys: Array<SigningKey & { createdAt: number }> = [];
  private loadedAt = -Infinity;
  private loading: Promise<void> | null = null;
  private readonly now: () => number;
  private readonly reloadIntervalMs: number;

  constructor(
    private readonly db: Db,
    private readonly options: StoredKeyRingOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.reloadIntervalMs = options.reloadIntervalMs ?? 60_000;
  }

  /** Makes the first key when the store has none (instances starting together make one between them). */
  async start(): Promise<void> {
    await ensureFirstSigningKey(this.db, newKey());
    await this.reload();
  }

  async signingKey(): Promise<SigningKey> {
    await this.reloadIfOlderThan(this.reloadIntervalMs);
    const newest = this.keys.at(-1);
    if (!newest) throw new Error('no signing key in the store');
    return newest;
  }

  async verifyingKey(kid: string | undefined): Promise<Uint8Array | null> {
    if (kid === undefined) return null;
    await this.reloadIfOlderThan(this.reloadIntervalMs);
    if (!this.keys.some((k) => k.kid === kid)) await this.reloadIfOlderThan(UNKNOWN_KID_RELOAD_MS);
    const index = this.keys.findIndex((k) => k.kid === kid);
    if (index < 0) return null;
    const successor = this.keys[index + 1];
    if (successor && this.now() > successor.createdAt + this.retirementDelayMs()) return null;
    return this.keys[index]!.secret;
  }

  /**
   * After a newer key exists, an instance that has not read the store since may sign with the old
   * one for up to a reload interval; its tokens then live for the access-token lifetime.
   */
  private retirementDelayMs(): number {
    return this.reloadIntervalMs + (this.options.accessTokenTtlSeconds + MAX_CLOCK_SKEW_SECONDS) * 1000;
  }

  private async reloadIfOlderThan(ageMs: number): Promise<void> {
    if (this.now() - this.loadedAt < ageMs) return;
    await this.reload();
  }

  /** Reads the keys again; concurrent callers share one read. */
  private reload(): Promise<void> {
    this.loading ??= listSigningKeys(this.db)
      .then((keys) => {
        this.keys = keys.map((k) => ({ kid: k.kid, secret: decode(k), createdAt: k.created_at.getTime() }));
        this.loadedAt = this.now();
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}

/** 256 random bits with a new id. */
export function newKey(): { kid: string; secret: string } {
  return { kid: randomUUID(), secret: randomBytes(32).toString('base64url') };
}

/**
 * Adds a new signing key (`npm run keys -- rotate`). Every instance signs with it within its reload
 * interval; the old keys keep verifying until their tokens have expired. Keys replaced more than a
 * day ago are deleted.
 */
export async function rotateSigningKey(db: Db, now = Date.now()): Promise<{ kid: string; deleted: number }> {
  const key = newKey();
  await addSigningKey(db, key);
  const deleted = await deleteKeysReplacedBefore(db, new Date(now - 24 * 3600 * 1000));
  return { kid: key.kid, deleted };
}
