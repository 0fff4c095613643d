import { adminSocketPath, reachAdminSocket } from '../modules/admin/index.ts';
import { AdminTimeoutError, AdminUnreachableError, sendUserCommand } from '../modules/admin/index.ts';
import { runUserCommand, UserCommandError, type UserCommand } from '../modules/admin/index.ts';
import { ConfigError, type Config } from '../platform/config/config.ts';
import { COMMAND_WAIT_MS, DataDirLockedError } from '../platform/store/data-dir-lock.ts';
import { lstat } from 'node:fs/promises';
import { DataFolderError, embeddedFolder, openDb, type Db } from '../platform/store/db.ts';
import { makeDataDir } from '../platform/store/private-dir.ts';
import { migrate } from '../platform/store/migrate.ts';
import { databaseProblem } from '../platform/store/wait-for-database.ts';

/** Exit 2: the operator's input was wrong, and nothing was changed. */
export class UsageError extends Error {}

/**
 * The command line as a command and its arguments, each command taking exactly as many as it
 * names. `--help` (or `-h`, `help`) prints the usage and exits 0; an unknown command, or too
 * many or too few arguments, is a UsageError that says which, then the usage.
 */
export function commandLine(argv: string[], usage: string, arity: Record<string, number>): { command: string; args: string[] } {
  const [command, ...args] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(usage);
    process.exit(0);
  }
  if (command === undefined) throw new UsageError(usage);
  const wanted = arity[command];
  if (wanted === undefined) throw new UsageError(`Unknown command "${command}".\n\n${usage}`);
  if (args.length !== wanted) {
    const takes = wanted === 0 ? 'takes no arguments' : wanted === 1 ? 'takes one NAME' : `takes ${wanted} arguments`;
    throw new UsageError(`"${command}" ${takes}; it was given ${args.length === 0 ? 'none' : args.map((a) => `"${a}"`).join(' ')}.\n\n${usage}`);
  }
  return { command, args };
}

/** Exit 1: the command could not be carried out, and nothing was changed. */
export class RefusedError extends Error {}

/** What a command does: on a store it opened itself, or through the server holding the embedded database. */
export interface StoreWork<T> {
  /** Whether it may make the embedded database where there is none (only adding a reader may). */
  mayCreate: boolean;
  /** Runs on the store, opened and migrated by this process. */
  local(db: Db): Promise<T>;
  /**
   * Runs through the running server that holds the embedded database (process `pid`), reached at
   * `socketPath` (its admin socket, perhaps through /proc); `shownPath` is the socket's own path.
   */
  viaServer(socketPath: string, pid: number, shownPath: string): Promise<T>;
}

/** Runs the command on the store; when a running server holds the embedded database, through it. */
export async function execute(config: Config, command: UserCommand): Promise<string> {
  return onStore(config, {
    mayCreate: command.command === 'add' || command.command === 'invite',
    local: (db) => runUserCommand(db, command, { dailyRoundBound: config.dailyRoundBound }),
    viaServer: async (socketPath, pid, shownPath) => {
      try {
        const reply = await sendUserCommand(socketPath, command);
        // 409: the command's own mistake (no such user); anything else, the server failed to carry it out.
        if (!reply.ok) throw reply.status === 409 ? new UserCommandError(reply.message) : new RefusedError(reply.message);
        return reply.message;
      } catch (sendError) {
        if (sendError instanceof AdminTimeoutError) {
          throw new RefusedError(
            `The server (process ${pid}) took the command but gave ${sendError.message}. It may still carry it out:` +
              ' check with npm run users -- list.',
          );
        }
        if (!(sendError instanceof AdminUnreachableError)) throw sendError;
        throw new RefusedError(
          `The server (process ${pid}) has the database in ${config.dataDir} open and did not answer on ${shownPath}` +
            ` (${sendError.message}). Nothing was changed: stop the server, or try again once it is ready.`,
        );
      }
    },
  });
}

/** Does `work` on the store: one this process opens, or, while a server holds the embedded database, through that server. */
export async function onStore<T>(config: Config, work: StoreWork<T>): Promise<T> {
  if (!config.databaseUrl) {
    // Only adding a reader may make the embedded database (before any server has); any other
    // command where there is none finds DATA_DIR mistyped, and would have made a new, empty one.
    const exists = async (at: string) => (await lstat(at).catch(() => null)) !== null;
    const noDatabase = () =>
      new UsageError(
        `There is no database in ${config.dataDir} (is DATA_DIR right?): a server's first start makes one, as does npm run users -- add. Nothing was changed.`,
      );
    // Before anything is made or changed (makeDataDir would close a mistyped /srv to 0700); a
    // DATA_DIR that is a file is left to makeDataDir to say so.
    const found = await lstat(config.dataDir).catch(() => null);
    if (!work.mayCreate && (!found || (found.isDirectory() && !(await exists(embeddedFolder(config.dataDir)))))) throw noDatabase();
    // As the server would make it; a DATA_DIR that is a file or takes no files is said so.
    await makeDataDir(config.dataDir);
  }
  try {
    const db = await openDb(config, {
      lock: {
        holder: 'command',
        onWait: (pid) => console.error(`Waiting for another command (process ${pid}) to finish with ${config.dataDir}…`),
      },
    });
    try {
      await migrate(db);
      return await work.local(db);
    } finally {
      await db.close();
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    if (error.holder === 'command') {
      throw new RefusedError(
        `Another command (process ${error.pid}) has held the database in ${config.dataDir} for over ${COMMAND_WAIT_MS / 1000} s.` +
          ' Nothing was changed: run this one again once it has finished.',
      );
    }
    const socketPath = adminSocketPath(config.dataDir);
    const address = await reachAdminSocket(config.dataDir);
    if (!address) {
      throw new RefusedError(
        `The server (process ${error.pid}) has the database in ${config.dataDir} open, and that folder is too deep for its` +
          ' admin socket on this system. Nothing was changed: stop the server and run the command again.',
      );
    }
    try {
      return await work.viaServer(address.path, error.pid, socketPath);
    } finally {
      await address.close();
    }
  }
}

/** Ends the CLI with the error's message: 2 for the operator's mistake, 1 for a refusal or failure. */
export function exitWithMessage(error: unknown): never {
  if (error instanceof UsageError || error instanceof UserCommandError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  const problem = databaseProblem(error, process.env.DATABASE_URL);
  console.error(
    error instanceof RefusedError || error instanceof DataFolderError ? error.message : problem ? `${problem}. The command was not carried out.` : error,
  );
  process.exit(1);
}
