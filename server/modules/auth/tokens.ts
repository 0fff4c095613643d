import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { LruCache } from '../../platform/caches/lru-cache.ts';

export const TOKEN_ISSUER = 'alchemy-search';
export const TOKEN_AUDIENCE = 'alchemy-search-api';
/** The only algorithm we sign with or accept: never `none`, never an asymmetric swap. */
const ALLOWED_ALGORITHMS = ['HS256'];
/** How far ahead of our clock a token's `iat` may lie (another instance's clock may run ahead). */
export const MAX_CLOCK_SKEW_SECONDS = 30;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A secret access tokens are signed with, named by its `kid`. */
export interface SigningKey {
  kid: string;
  secret: Uint8Array;
}

/** The keys access tokens are signed and verified with. */
export interface KeyRing {
  /** The key new tokens are signed with. */
  signingKey(): Promise<SigningKey>;
  /** The key a token's `kid` names while it still verifies; null for one unknown or retired. */
  verifyingKey(kid: string | undefined): Promise<Uint8Array | null>;
}

export interface AccessClaims {
  username: string;
  sessionId: string;
}

/** Signs with `key`, naming it in the header (`kid`) so that any instance can pick the key to verify with. */
export async function signAccessToken(
  key: SigningKey,
  claims: AccessClaims,
  nowSeconds: number,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: key.kid })
    .setSubject(claims.username)
    .setJti(randomUUID())
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ttlSeconds)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .sign(await cryptoKeyOf(key.secret));
}

/**
 * Whether the signature is spelt the one way base64url spells its bytes. A last character whose
 * unused low bits are set decodes to the same bytes, so without this check one token would have
 * several accepted spellings (anything that keys on the token's text would count it twice).
 */
function hasCanonicalSignature(token: string): boolean {
  const signature = token.slice(token.lastIndexOf('.') + 1);
  return Buffer.from(signature, 'base64url').toString('base64url') === signature;
}

/**
 * The token's claims when its key (by `kid`) is one the ring verifies with and its signature,
 * algorithm, type, issuer, audience and expiry hold; else null.
 */
/**
 * Each secret as the CryptoKey jose signs and verifies with, imported once: given the bytes, jose
 * imports them again on every call (a fifth of a token check's CPU). Kept by the secret's own
 * array (the key ring decodes each secret once per read of the store), so a key dropped from the
 * ring is let go with it.
 */
const cryptoKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function cryptoKeyOf(secret: Uint8Array): Promise<CryptoKey> {
  let key = cryptoKeys.get(secret);
  if (!key) {
    // A copy on an ArrayBuffer of its own, as WebCrypto's types ask (the secret may view a shared one).
    key = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    cryptoKeys.set(secret, key);
  }
  return key;
}

/**
 * Tokens verified lately, by their whole text (signature and all): a reader's requests carry one
 * access token for its life, and its signature is checked once (WebCrypto's HMAC, and jose's
 * parsing, were a tenth of a vote's CPU). A token found here passes only while the key its `kid`
 * names is still the ring's, with the same bytes, and before its `exp`: exactly when checking it
 * again would pass. Whether its session is still live is asked on every request (authenticate.ts),
 * and by a save in the statement that stores its votes (liveSessionSql).
 */
const verified = new LruCache<string, { claims: AccessClaims; kid: string | undefined; secret: Buffer; exp: number }>(5_000);

export async function verifyAccessToken(keys: KeyRing, token: string, now: Date): Promise<AccessClaims | null> {
  const seen = verified.get(token);
  if (seen && seen.exp > Math.floor(now.getTime() / 1000)) {
    const key = await keys.verifyingKey(seen.kid);
    if (key && seen.secret.equals(key)) return seen.claims;
  }
  if (!hasCanonicalSignature(token)) return null;
  let kid: string | undefined;
  try {
    const { kid: named } = decodeProtectedHeader(token);
    kid = typeof named === 'string' ? named : undefined;
  } catch {
    return null; // not a JWT at all
  }
  // Reading the keys may fail (the store away or broken): the server's trouble, never the token's,
  // so it is thrown (503 or 500), not taken as an invalid token (401 would sign the reader out).
  const verifying = await keys.verifyingKey(kid);
  if (!verifying) return null;
  try {
    const { payload } = await jwtVerify(token, await cryptoKeyOf(verifying), {
      algorithms: ALLOWED_ALGORITHMS,
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      typ: 'at+jwt',
      currentDate: now,
      requiredClaims: ['sub', 'sid', 'jti', 'iat', 'exp'],
      clockTolerance: 0,
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || !UUID.test(payload.sid)) return null;
    // Issued in the future: a forged clock, or a key used elsewhere; only a small skew is allowed.
    if (payload.iat! > now.getTime() / 1000 + MAX_CLOCK_SKEW_SECONDS) return null;
    const claims = { username: payload.sub, sessionId: payload.sid };
    verified.set(token, { claims, kid, secret: Buffer.from(verifying), exp: payload.exp! });
    return claims;
  } catch {
    return null;
  }
}

/** An opaque refresh token: 256 bits from the CSPRNG. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Refresh tokens are stored only as this hash. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
