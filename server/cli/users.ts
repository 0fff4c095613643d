import { hashPassword, passwordProblem } from '../auth/passwords.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDb, type Db } from '../store/db.ts';
import { migrate } from '../store/migrate.ts';
import { deleteFeedbackOf } from '../store/feedback.ts';
import { deleteSessionsOf, revokeUserSessions } from '../store/sessions.ts';
import { clearThrottle } from '../store/throttle.ts';
import { findUser, insertUser, listUsers, normaliseUsername, setDisabled, setPasswordHash, USERNAME_PATTERN } from '../store/users.ts';
import { promptHidden } from './prompt.ts';

const USAGE = `Usage: npm run users -- <command> [NAME]

  add NAME       create a user (asks for the password, or reads USER_PASSWORD)
  list           list users
  passwd NAME    set a new password and sign the user out everywhere
  disable NAME   stop the user signing in and end their sessions
  enable NAME    let a disabled user sign in again
  forget NAME    delete the reader's votes and sessions (the privacy page's promise)

Passwords are 8 to 128 characters.`;

class UsageError extends Error {}

async function readNewPassword(): Promise<string> {
  const fromEnv = process.env.USER_PASSWORD;
  const password = fromEnv ?? (await promptHidden('Password: '));
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  if (fromEnv === undefined && (await promptHidden('Repeat password: ')) !== password) {
    throw new UsageError('The passwords do not match');
  }
  return password;
}

function requireName(name: string | undefined): string {
  if (!name) throw new UsageError(USAGE);
  const username = normaliseUsername(name);
  if (!USERNAME_PATTERN.test(username)) {
    throw new UsageError('A username is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit');
  }
  return username;
}

async function run(db: Db, command: string | undefined, name: string | undefined): Promise<string> {
  switch (command) {
    case 'add': {
      const username = requireName(name);
      if (await findUser(db, username)) throw new UsageError(`User ${username} already exists`);
      const hash = await hashPassword(await readNewPassword());
      if (!(await insertUser(db, username, hash))) throw new UsageError(`User ${username} already exists`);
      return `Added ${username}`;
    }
    case 'list': {
      const users = await listUsers(db);
      if (users.length === 0) return 'No users';
      return users
        .map((u) => `${u.username}\t${u.disabled ? 'disabled' : 'active'}\tsince ${u.created_at.toISOString().slice(0, 10)}`)
        .join('\n');
    }
    case 'passwd': {
      const username = requireName(name);
      if (!(await findUser(db, username))) throw new UsageError(`No user ${username}`);
      await setPasswordHash(db, username, await hashPassword(await readNewPassword()));
      const ended = await revokeUserSessions(db, username, new Date(), 'password changed');
      return `Password changed for ${username}; ${ended} session(s) ended`;
    }
    case 'disable':
    case 'enable': {
      const username = requireName(name);
      if (!(await setDisabled(db, username, command === 'disable'))) throw new UsageError(`No user ${username}`);
      if (command === 'enable') return `Enabled ${username}`;
      const ended = await revokeUserSessions(db, username, new Date(), 'user disabled');
      return `Disabled ${username}; ${ended} session(s) ended`;
    }
    case 'forget': {
      const username = requireName(name);
      const { votes, sessions } = await db.transaction(async (tx) => {
        const votes = await deleteFeedbackOf(tx, username);
        const sessions = await deleteSessionsOf(tx, username);
        await clearThrottle(tx, `user:${username}`);
        return { votes, sessions };
      });
      return `Forgot ${username}: ${votes} vote(s) and ${sessions} session(s) deleted`;
    }
    default:
      throw new UsageError(USAGE);
  }
}

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  const config = loadConfig();
  const db = await openDb(config);
  try {
    await migrate(db);
    console.log(await run(db, command, name));
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
