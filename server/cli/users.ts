import type { UserCommand } from '../modules/admin/index.ts';
import { hashPassword, passwordProblem } from '../modules/auth/index.ts';
import { loadConfig } from '../platform/config/config.ts';
import { normaliseUsername, USERNAME_PATTERN } from '../modules/auth/index.ts';
import { commandLine, execute, exitWithMessage, UsageError } from './admin-command.ts';
import { promptHidden } from './prompt.ts';

const USAGE = `Usage: npm run users -- <command> [NAME]

  add NAME       create a user (asks for the password, or reads USER_PASSWORD)
  list           list users
  passwd NAME    set a new password and sign the user out everywhere
  disable NAME   stop the user signing in and end their sessions
  enable NAME    let a disabled user sign in again
  forget NAME    delete the reader's votes and sessions (the privacy page's promise)
  remove NAME    delete the account too: its votes, its sessions and the user

Passwords are 8 to 128 characters. While the server runs on the embedded store, the command is
run by the server itself and takes effect at once.`;

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
    case 'remove':
      return { command, username: requireName(name) };
    default:
      throw new UsageError(USAGE);
  }
}

const ARITY = { list: 0, add: 1, passwd: 1, disable: 1, enable: 1, forget: 1, remove: 1 };

async function main(): Promise<void> {
  const { command, args } = commandLine(process.argv.slice(2), USAGE, ARITY);
  const name = args[0];
  const config = loadConfig();
  console.log(await execute(config, await parseCommand(command, name)));
}

main().catch(exitWithMessage);
