import { rotateSigningKey } from '../auth/index.ts';
import type { Db } from '../../platform/store/db.ts';
import { listSigningKeys } from '../auth/index.ts';
import { deleteFeedbackOf } from '../arena/index.ts';
import { deleteSavedOf } from '../saved/index.ts';
import { deleteSessionsOf, revokeUserSessions } from '../auth/index.ts';
import { clearThrottle } from '../../platform/limits/throttle.ts';
import { deleteUser, findUser, insertUser, listUsers, setDisabled, setPasswordHash, USERNAME_PATTERN } from '../auth/index.ts';
import { createInvitation, forgetInvitationsOf, listPendingInvitations, MAX_INVITATION_SECONDS, revokeInvitation } from '../auth/index.ts';
import { USER_TYPES } from '../../../contract/vocabulary.ts';
import { Type, type Static } from 'typebox';

const Username = Type.String({ pattern: USERNAME_PATTERN.source });
const PasswordHash = Type.String({ pattern: '^\\$argon2id\\$' });
const only = { additionalProperties: false };
const InvitationId = Type.String({ pattern: '^[0-9a-f]{8}$' });

/**
 * One `npm run users` or `npm run keys` command, ready to run: the name checked, any new password
 * already hashed. The CLI sends it to a running server over the admin socket, which checks it by
 * this schema.
 */
export const UserCommand = Type.Union([
  Type.Object({ command: Type.Union([Type.Literal('list'), Type.Literal('keys-list'), Type.Literal('keys-rotate')]) }, only),
  Type.Object({ command: Type.Union([Type.Literal('add'), Type.Literal('passwd')]), username: Username, passwordHash: PasswordHash }, only),
  // The link's token stays with the CLI: the server is sent only its SHA-256 hash.
  Type.Object(
    {
      command: Type.Literal('invite'),
      tokenHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
      userType: Type.Union([Type.Literal(USER_TYPES[0]), Type.Literal(USER_TYPES[1]), Type.Null()]),
      expiresInSeconds: Type.Integer({ minimum: 60, maximum: MAX_INVITATION_SECONDS }),
    },
    only,
  ),
  Type.Object({ command: Type.Literal('invite-revoke'), id: InvitationId }, only),
  Type.Object({ command: Type.Union([Type.Literal('disable'), Type.Literal('enable'), Type.Literal('forget'), Type.Literal('remove')]), username: Username }, only),
]);
export type UserCommand = Static<typeof UserCommand>;

/** A command the store refused (an unknown or taken name): the operator's mistake, not a failure. */
export class UserCommandError extends Error {}

/**
 * Runs a command on the store and says what it did. The CLI calls it on a database it opened
 * itself, or asks the running server (which has the embedded database open) to call it.
 */
/** `arena.dailyRoundBound`: ARENA_DAILY_ROUNDS, by which a forgotten reader's tallies are taken back when some must be made again. */
export async function runUserCommand(db: Db, command: UserCommand, arena: { dailyRoundBound: number }): Promise<string> {
  switch (command.command) {
    case 'list': {
      const users = await listUsers(db);
      const invitations = await listPendingInvitations(db, new Date());
      const lines = users.map((u) => `${u.username}\t${u.disabled ? 'disabled' : 'active'}\tsince ${u.created_at.toISOString().slice(0, 10)}`);
      if (users.length === 0) lines.push('No users');
      // Pending only: a used invitation is its account above, an expired or revoked one nothing.
      for (const i of invitations) lines.push(`invitation ${i.id}\t${i.user_type ?? 'either type'}\tpending until ${i.expires_at.toISOString()}`);
      return lines.join('\n');
    }
    case 'invite': {
      const { id, expiresAt } = await createInvitation(db, command);
      const who = command.userType ? `an ${command.userType}` : 'a reader (Enthusiast or Ustaz, their choice)';
      return `Invitation ${id} for ${who}: single use, until ${expiresAt.toISOString()}. Withdraw it with: npm run users -- invite --revoke ${id}`;
    }
    case 'invite-revoke': {
      if (!(await revokeInvitation(db, command.id, new Date()))) throw new UserCommandError(`No pending invitation ${command.id}`);
      return `Revoked invitation ${command.id}: its link no longer works`;
    }
    case 'add': {
      if (!(await insertUser(db, command.username, command.passwordHash))) {
        throw new UserCommandError(`User ${command.username} already exists`);
      }
      return `Added ${command.username}`;
    }
    case 'passwd': {
      const { username } = command;
      const ended = await db.transaction(async (tx) => {
        if (!(await setPasswordHash(tx, username, command.passwordHash))) throw new UserCommandError(`No user ${username}`);
        return revokeUserSessions(tx, username, new Date(), 'password changed');
      });
      return `Password changed for ${username}; ${ended} session(s) ended`;
    }
    case 'disable':
    case 'enable': {
      const { username } = command;
      const disable = command.command === 'disable';
      const ended = await db.transaction(async (tx) => {
        if (!(await setDisabled(tx, username, disable))) throw new UserCommandError(`No user ${username}`);
        return disable ? revokeUserSessions(tx, username, new Date(), 'user disabled') : 0;
      });
      return disable ? `Disabled ${username}; ${ended} session(s) ended` : `Enabled ${username}`;
    }
    case 'forget':
    case 'remove': {
      const { username } = command;
      const remove = command.command === 'remove';
      const { votes, saved, sessions } = await db.transaction(async (tx) => {
        // A mistyped name must not look like a request honoured.
        if (!(await findUser(tx, username))) throw new UserCommandError(`No user ${username}`);
        const votes = await deleteFeedbackOf(tx, username, arena.dailyRoundBound);
        const saved = await deleteSavedOf(tx, username);
        const sessions = await deleteSessionsOf(tx, username);
        await forgetInvitationsOf(tx, username);
        await clearThrottle(tx, `user:${username}`);
        if (remove) await deleteUser(tx, username);
        return { votes, saved, sessions };
      });
      return remove
        ? `Removed ${username}: the account, ${votes} vote(s), ${saved} saved passage(s) and ${sessions} session(s) deleted`
        : `Forgot ${username}: ${votes} vote(s), ${saved} saved passage(s) and ${sessions} session(s) deleted`;
    }
    case 'keys-list': {
      const keys = await listSigningKeys(db);
      if (keys.length === 0) return 'No signing keys yet: the first start makes one';
      return keys
        .map((k, i) => `${k.kid}	since ${k.created_at.toISOString()}	${i === keys.length - 1 ? 'signing' : 'verifying until its tokens expire'}`)
        .join('\n');
    }
    case 'keys-rotate': {
      const { kid, deleted } = await rotateSigningKey(db);
      return (
        `Added signing key ${kid}. Every instance signs new tokens with it within a minute; tokens signed ` +
        `with the older keys keep working until they expire.${deleted ? ` Deleted ${deleted} key(s) retired over a day ago.` : ''}`
      );
    }
  }
}
