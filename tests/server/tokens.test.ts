import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken, type KeyRing } from '../../server/modules/auth/tokens.ts';

const SECRET = new TextEncoder().encode('a-first-signing-key-of-32-bytes-or-more');
const OTHER = new TextEncoder().encode('another-signing-key-of-32-bytes-or-more');
const CLAIMS = { username: 'reader', sessionId: '6f1c2a7e-0b7d-4c2e-9a43-1f0e5d7c9b21' };

/** A key ring a test changes as it goes: what `kid` 'k1' stands for, or nothing. */
function ring(): KeyRing & { key: Uint8Array | null } {
  return {
    key: SECRET,
    signingKey: async function () {
      return { kid: 'k1', secret: this.key! };
    },
    verifyingKey: async function (kid) {
      return kid === 'k1' ? this.key : null;
    },
  };
}

describe('an access token checked again', () => {
  const issued = Math.floor(Date.parse('2026-11-28T10:00:00Z') / 1000);
  const at = (seconds: number) => new Date((issued + seconds) * 1000);

  it('passes while its key is the ring’s and before its exp, however often it has passed before', async () => {
    const keys = ring();
    const token = await signAccessToken({ kid: 'k1', secret: SECRET }, CLAIMS, issued, 900);
    for (const second of [0, 1, 899]) expect(await verifyAccessToken(keys, token, at(second))).toEqual(CLAIMS);
    expect(await verifyAccessToken(keys, token, at(900))).toBeNull();
  });

  it('no longer passes once its key is retired, or its kid names other bytes, though it passed a moment before', async () => {
    const keys = ring();
    const token = await signAccessToken({ kid: 'k1', secret: SECRET }, CLAIMS, issued, 900);
    expect(await verifyAccessToken(keys, token, at(1))).toEqual(CLAIMS);
    keys.key = null;
    expect(await verifyAccessToken(keys, token, at(2))).toBeNull();
    keys.key = OTHER;
    expect(await verifyAccessToken(keys, token, at(3))).toBeNull();
    keys.key = SECRET;
    expect(await verifyAccessToken(keys, token, at(4))).toEqual(CLAIMS);
  });

  it('never passes a changed copy of a token that passed', async () => {
    const keys = ring();
    const token = await signAccessToken({ kid: 'k1', secret: SECRET }, CLAIMS, issued, 900);
    expect(await verifyAccessToken(keys, token, at(1))).toEqual(CLAIMS);
    const [h, p, s] = token.split('.');
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'mallory' })).toString('base64url');
    expect(await verifyAccessToken(keys, `${h}.${other}.${s}`, at(2))).toBeNull();
    expect(await verifyAccessToken(keys, `${token}x`, at(2))).toBeNull();
  });
});
