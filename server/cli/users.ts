import { adminSocketPath } from '../admin/admin-socket.ts';
import { AdminTimeoutError, AdminUnreachableError, sendUserCommand } from '../admin/admin-client.ts';
import { runUserCommand, UserCommandError, type UserCommand } from '../admin/user-commands.ts';
import { hashPassword, passwordProblem } from '../auth/passwords.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { DataDirLockedError } from '../store/data-dir-lock.ts';
import { openDb } from '../store/db.ts';
import { migrate } from '../store/migrate.ts';
import { normaliseUsername, USERNAME_PATTERN } from '../store/users.ts';
import { promptHidden } from './prompt.ts';

const USAGE = `Usage: npm run users -- <command> [NAME]

  add NAME       create a user (asks for the password, or reads USER_PASSWORD)
  list           list users
  passwd NAME    set a new password and sign the user out everywhere
  disable NAME   stop the user signing in and end their sessions
  enable NAME    let a disabled user sign in again
  forget NAME    delete the reader's votes and sessions (the privacy page's promise)

Passwords are 8 to 128 characters. While the server runs on the embedded store, the command is
run by the server itself and takes effect at once.`;

/** Exit 2: the operator's input was wrong, and nothing was changed. */
class UsageError extends Error {}
/** Exit 1: the command could not be carried out, and nothing was changed. */
class RefusedError extends Error {}

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

/** The command line as a command to run; any new password is asked for and hashed here. */
async function parseCommand(command: string | undefined, name: string | undefined): Promise<UserCommand> {
  switch (command) {
    case 'list':
      return { command };
    case 'add':
    case 'passwd': {
      const username = requireName(name);
      return { command, username, passwordHash: await hashPassword(await readNewPassword()) };
    }
    case 'disable':
    case 'enable':
    case 'forget':
      return { command, username: requireName(name) };
    default:
      throw new UsageError(USAGE);
  }
}

/** Runs the command on the store; when a running server holds the embedded database, through it. */
async function execute(config: Config, command: UserCommand): Promise<string> {
  try {
    const db = await openDb(config);
    try {
      await migrate(db);
      return await runUserCommand(db, command);
    } finally {
      await db.close();
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const socketPath = adminSocketPath(config.dataDir);
    try {
      const reply = await sendUserCommand(socketPath, command);
      if (!reply.ok) throw new UserCommandError(reply.message);
      return reply.message;
    } catch (sendError) {
      if (sendError instanceof AdminTimeoutError) {
        throw new RefusedError(
          `The server (process ${error.pid}) took the command but gave ${sendError.message}. It may still carry it out:` +
            ' check with npm run users -- list.',
        );
      }
      if (!(sendError instanceof AdminUnreachableError)) throw sendError;
      throw new RefusedError(
        `The server (process ${error.pid}) has the database in ${config.dataDir} open and did not answer on ${socketPath}` +
          ` (${sendError.message}). Nothing was changed: stop the server, or try again once it is ready.`,
      );
    }
  }
}

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  const config = loadConfig();
  console.log(await execute(config, await parseCommand(command, name)));
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof UserCommandError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  if (error instanceof RefusedError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
