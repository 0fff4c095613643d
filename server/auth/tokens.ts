import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const TOKEN_ISSUER = 'alchemy-search';
export const TOKEN_AUDIENCE = 'alchemy-search-api';
/** The only algorithm we sign with or accept: never `none`, never an asymmetric swap. */
const ALLOWED_ALGORITHMS = ['HS256'];
/** How far ahead of our clock a token's `iat` may lie (another instance's clock may run ahead). */
export const MAX_CLOCK_SKEW_SECONDS = 30;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccessClaims {
  username: string;
  sessionId: string;
}

export async function signAccessToken(
  key: Uint8Array,
  claims: AccessClaims,
  nowSeconds: number,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setSubject(claims.username)
    .setJti(randomUUID())
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ttlSeconds)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .sign(key);
}

/** The token's claims when its signature, algorithm, type, issuer, audience and expiry hold; else null. */
export async function verifyAccessToken(key: Uint8Array, token: string, now: Date): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
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
    return { username: payload.sub, sessionId: payload.sid };
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
