import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A search's receipt (docs/arena.md, "Only what was shown counts"): what the server showed one
 * reader for one question, signed so that a vote can prove it. It names the reader, the
 * normalised question, the two arms drawn (by the name votes carry) and each arm's first passage,
 * and when it stops being accepted. Both results of one search carry the same receipt; a vote
 * counts only for an arm of it and that arm's first passage.
 *
 * The text is `v1.<payload>.<mac>`: the payload base64url JSON, the mac the HMAC-SHA256 of
 * `v1.<payload>` under the arena's `receipt` secret (kept in the store, so every instance on one
 * database signs and checks alike), base64url. Opaque to the client: it only copies it.
 */
export interface Receipt {
  /** The reader the search was made for (the token's user). */
  reader: string;
  /** The normalised question (question.ts). */
  question: string;
  /** The two arms drawn, by model_type, in the pool's order. */
  arms: readonly [string, string];
  /** Each arm's first passage id, in the order of `arms` (null: that arm found nothing). */
  firsts: readonly [string | null, string | null];
  /** When it stops being accepted, in Unix seconds. */
  expires: number;
}

const VERSION = 'v1';
/**
 * How long a receipt is accepted: a vote waits in the outbox of a device that is offline, and is
 * sent when it is back. A week covers the outbox's life; a receipt is its reader's only, so a
 * longer one buys an attacker nothing but the same round again, which counts once.
 */
export const RECEIPT_TTL_SECONDS = 7 * 86_400;
/** A receipt longer than this is not read (a search's is about 300 characters). */
export const MAX_RECEIPT_LENGTH = 2_000;

const mac = (secret: Buffer, signed: string) => createHmac('sha256', secret).update(signed, 'utf8').digest();

/** The receipt's text, signed with `secret`. */
export function signReceipt(secret: Buffer, receipt: Receipt): string {
  const payload = Buffer.from(
    JSON.stringify({ r: receipt.reader, q: receipt.question, a: receipt.arms, f: receipt.firsts, x: receipt.expires }),
    'utf8',
  ).toString('base64url');
  const signed = `${VERSION}.${payload}`;
  return `${signed}.${mac(secret, signed).toString('base64url')}`;
}

export type ReceiptReading = { ok: true; receipt: Receipt } | { ok: false; reason: 'forged' | 'expired' };

/**
 * What a receipt says, when `secret` signed it and it has not expired at `nowSeconds`. Anything
 * else (a changed byte, another secret, not a receipt at all) is `forged`: the server never made it.
 */
export function readReceipt(secret: Buffer, text: string, nowSeconds: number): ReceiptReading {
  const parts = text.length <= MAX_RECEIPT_LENGTH ? text.split('.') : [];
  if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, reason: 'forged' };
  const given = Buffer.from(parts[2]!, 'base64url');
  const expected = mac(secret, `${parts[0]}.${parts[1]}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'forged' };
  }
  const receipt = receiptOf(body);
  if (!receipt) return { ok: false, reason: 'forged' };
  if (receipt.expires <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, receipt };
}

function receiptOf(body: unknown): Receipt | null {
  if (typeof body !== 'object' || body === null) return null;
  const { r, q, a, f, x } = body as Record<string, unknown>;
  const pair = (v: unknown, nullable: boolean): v is [string, string] =>
    Array.isArray(v) && v.length === 2 && v.every((s) => typeof s === 'string' || (nullable && s === null));
  if (typeof r !== 'string' || typeof q !== 'string' || typeof x !== 'number' || !pair(a, false) || !pair(f, true)) return null;
  return { reader: r, question: q, arms: [a[0], a[1]], firsts: [f[0], f[1]], expires: x };
}
