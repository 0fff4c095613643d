import type { UserCommand } from '../modules/admin/index.ts';
import { hashPassword, MAX_INVITATION_SECONDS, newInvitationToken, passwordProblem } from '../modules/auth/index.ts';
import { loadConfig, publicBaseUrl } from '../platform/config/config.ts';
import { normaliseUsername, USERNAME_PATTERN, USERNAME_RULE } from '../modules/auth/index.ts';
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
  invite [--type enthusiast|ustaz] [--expires 7d]
                 print a single-use link through which a reader makes their own account
                 (name, password, and user type unless --type fixes it); --expires takes
                 minutes, hours or days (30m, 12h, 7d; at most 90d), 7d by default. Links
                 start with PUBLIC_URL, else the server's own address (HOST, PORT)
  invite --revoke ID
                 withdraw a pending invitation (list shows them)

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
    throw new UsageError(USERNAME_RULE);
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

const UNITS: Record<string, number> = { m: 60, h: 3600, d: 86_400 };

/** `--expires`: a whole number of minutes, hours or days, from a minute to 90 days. */
function expirySeconds(raw: string): number {
  const match = /^(\d{1,5})([mhd])$/.exec(raw.trim());
  const seconds = match ? Number(match[1]) * UNITS[match[2]!]! : NaN;
  if (!(seconds >= 60 && seconds <= MAX_INVITATION_SECONDS)) {
    throw new UsageError(`--expires takes minutes, hours or days, from 1m to 90d, such as 30m, 12h or 7d (got "${raw}")`);
  }
  return seconds;
}

/** `invite [--type T] [--expires E]` or `invite --revoke ID`: the command, and the token its link carries (none to revoke). */
function parseInvite(args: string[]): { command: UserCommand; token?: string } {
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i]!, args[i + 1]];
    if (!['--type', '--expires', '--revoke'].includes(flag)) throw new UsageError(`invite does not take "${flag}".\n\n${USAGE}`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value.\n\n${USAGE}`);
    if (options.has(flag)) throw new UsageError(`${flag} is given twice.\n\n${USAGE}`);
    options.set(flag, value);
  }
  const revoke = options.get('--revoke');
  if (revoke !== undefined) {
    if (options.size > 1) throw new UsageError(`--revoke takes no other option.\n\n${USAGE}`);
    if (!/^[0-9a-f]{8}$/.test(revoke)) throw new UsageError(`An invitation's id is 8 characters, 0-9 and a-f, as list shows it (got "${revoke}")`);
    return { command: { command: 'invite-revoke', id: revoke } };
  }
  const type = options.get('--type')?.toLowerCase();
  if (type !== undefined && type !== 'enthusiast' && type !== 'ustaz') throw new UsageError(`--type is enthusiast or ustaz (got "${options.get('--type')}")`);
  const { token, tokenHash } = newInvitationToken();
  return {
    command: {
      command: 'invite',
      tokenHash,
      userType: type === undefined ? null : type === 'ustaz' ? 'Ustaz' : 'Enthusiast',
      expiresInSeconds: expirySeconds(options.get('--expires') ?? '7d'),
    },
    token,
  };
}

const ARITY = { list: 0, add: 1, passwd: 1, disable: 1, enable: 1, forget: 1, remove: 1 };

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'invite') {
    const config = loadConfig();
    const { command, token } = parseInvite(argv.slice(1));
    const message = await execute(config, command);
    // The link is printed here only: the store keeps its hash, and no log sees it.
    console.log(token === undefined ? message : `${publicBaseUrl(config)}/invite/${token}\n${message}`);
    return;
  }
  const { command, args } = commandLine(argv, USAGE, ARITY);
  const name = args[0];
  const config = loadConfig();
  console.log(await execute(config, await parseCommand(command, name)));
}

main().catch(exitWithMessage);
