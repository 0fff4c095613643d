import { createHash, randomBytes } from 'node:crypto';
import type { TokenReply } from '../../../contract/api-schemas.ts';
import { USER_TYPES, type UserType } from '../../../contract/vocabulary.ts';
import { StoreLimiter } from '../../platform/limits/rate-limit.ts';
import type { Db } from '../../platform/store/db.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { findInvitation, insertInvitation, takeInvitation, type InvitationRow } from './sql/invitations.ts';
import { findUser, insertUser, normaliseUsername, USERNAME_PATTERN, USERNAME_RULE } from './sql/users.ts';
import { describeWait } from './throttle-policy.ts';

/** Tries a minute from one address at checking or taking an invitation, when INVITE_RATE_LIMIT is not set. */
export const DEFAULT_INVITE_RATE_LIMIT = 10;
/** The longest an invitation may stay open: 90 days. */
export const MAX_INVITATION_SECONDS = 90 * 86_400;

/** What a reader is told, and with which status, when an invitation cannot be used. */
export interface Refusal {
  status: number;
  detail: string;
  headers?: Record<string, string>;
}

export type InvitationState = 'unknown' | 'expired' | 'used' | 'revoked' | 'pending';

const REFUSALS: Record<Exclude<InvitationState, 'pending'>, Refusal> = {
  unknown: { status: 404, detail: 'This invitation link is not valid. Check that it was copied whole, or ask for a new one.' },
  expired: { status: 410, detail: 'This invitation has expired — ask for a new one.' },
  used: { status: 410, detail: 'This invitation has already been used. If you made an account with it, sign in instead.' },
  revoked: { status: 410, detail: 'This invitation was withdrawn — ask for a new one.' },
};

/** A new invitation's secret (256 bits from the CSPRNG, for the link) and the hash the store keeps. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Stores an invitation by its token's hash; its id (what the operator sees and revokes by) and expiry. */
export async function createInvitation(
  db: Db,
  invitation: { tokenHash: string; userType: UserType | null; expiresInSeconds: number },
  now = new Date(),
): Promise<{ id: string; expiresAt: Date }> {
  const id = randomBytes(4).toString('hex');
  const expiresAt = new Date(now.getTime() + invitation.expiresInSeconds * 1000);
  await insertInvitation(db, { id, tokenHash: invitation.tokenHash, userType: invitation.userType, now, expiresAt });
  return { id, expiresAt };
}

export function invitationState(row: InvitationRow | undefined, now: Date): InvitationState {
  if (!row) return 'unknown';
  if (row.used_at) return 'used';
  if (row.revoked_at) return 'revoked';
  return row.expires_at.getTime() <= now.getTime() ? 'expired' : 'pending';
}

function isUserType(value: string | null): value is UserType {
  return value !== null && (USER_TYPES as readonly string[]).includes(value);
}

export type CheckOutcome = { refused: Refusal } | { refused?: undefined; userType: UserType | null; expiresAt: Date };
export type AcceptOutcome = { refused: Refusal } | { refused?: undefined; tokens: TokenReply; username: string; userType: UserType };

/** The name was taken between the check and the insert: the transaction is rolled back. */
class NameTaken extends Error {}
/** The invitation was taken, revoked or expired between the check and the take. */
class NotPending extends Error {}

/**
 * Invitations as a reader meets them: checked, then taken to make an account and sign in. Every
 * try counts against the address in the store (shared by every instance on it).
 */
export class InvitationService {
  private readonly limiter: StoreLimiter;

  constructor(
    private readonly db: Db,
    private readonly startSession: (username: string, passwordHash: string) => Promise<TokenReply | null>,
    private readonly now: () => number,
    rateLimit = DEFAULT_INVITE_RATE_LIMIT,
  ) {
    this.limiter = new StoreLimiter(db, rateLimit);
  }

  /** Whether the invitation may be used, and for which user type. */
  async check(token: string, address: string): Promise<CheckOutcome> {
    const limited = await this.limit(address);
    if (limited) return { refused: limited };
    const row = await findInvitation(this.db, hashInvitationToken(token));
    const state = invitationState(row, new Date(this.now()));
    if (state !== 'pending' || !row) return { refused: REFUSALS[state === 'pending' ? 'unknown' : state] };
    return { userType: isUserType(row.user_type) ? row.user_type : null, expiresAt: row.expires_at };
  }

  /**
   * Makes the account (the name and password rules of `npm run users -- add`, argon2id) and takes
   * the invitation in one transaction, then signs the reader in. Of two concurrent accepts of one
   * invitation exactly one makes an account; a refusal changes nothing.
   */
  async accept(form: { token: string; username: string; password: string; userType?: UserType }, address: string): Promise<AcceptOutcome> {
    const limited = await this.limit(address);
    if (limited) return { refused: limited };
    const tokenHash = hashInvitationToken(form.token);
    const row = await findInvitation(this.db, tokenHash);
    const state = invitationState(row, new Date(this.now()));
    if (state !== 'pending' || !row) return { refused: REFUSALS[state === 'pending' ? 'unknown' : state] };
    const fixed = isUserType(row.user_type) ? row.user_type : null;
    if (fixed && form.userType && form.userType !== fixed) {
      return { refused: { status: 400, detail: `This invitation is for an ${fixed} account.` } };
    }
    const userType = fixed ?? form.userType ?? 'Enthusiast';
    const username = normaliseUsername(form.username);
    if (!USERNAME_PATTERN.test(username)) return { refused: { status: 400, detail: USERNAME_RULE } };
    const problem = passwordProblem(form.password);
    if (problem) return { refused: { status: 400, detail: problem } };
    const taken = { status: 409, detail: `The name ${username} is taken. Please choose another.` };
    // Before the argon2id work; checked again, under the unique key, as the account is added.
    if (await findUser(this.db, username)) return { refused: taken };
    const passwordHash = await hashPassword(form.password);
    try {
      await this.db.transaction(async (tx) => {
        if (!(await insertUser(tx, username, passwordHash))) throw new NameTaken();
        if (!(await takeInvitation(tx, tokenHash, username, new Date(this.now())))) throw new NotPending();
      });
    } catch (error) {
      if (!(error instanceof NameTaken || error instanceof NotPending)) throw error;
      // Taken meanwhile by a concurrent accept (perhaps under this very name): say what it is now.
      const now = invitationState(await findInvitation(this.db, tokenHash), new Date(this.now()));
      return { refused: now === 'pending' ? taken : REFUSALS[now] };
    }
    const tokens = await this.startSession(username, passwordHash);
    if (!tokens) return { refused: { status: 409, detail: 'Your account was made, but it was changed before you were signed in: please sign in.' } };
    return { tokens, username, userType };
  }

  private async limit(address: string): Promise<Refusal | null> {
    const verdict = await this.limiter.hit(`invite:${address}`, this.now());
    if (verdict.allowed) return null;
    return {
      status: 429,
      detail: `Too many tries at an invitation from your address. ${describeWait(verdict.retryAfterSeconds)}`,
      headers: { 'retry-after': String(verdict.retryAfterSeconds) },
    };
  }
}
