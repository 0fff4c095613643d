import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { chmod, lstat, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../platform/config/config.ts';
import { sideServerLogging } from '../../platform/log.ts';
import type { Db } from '../../platform/store/db.ts';
import { runUserCommand, UserCommand, UserCommandError } from './user-commands.ts';
import { PassThrough } from 'node:stream';
import { Type, type Static } from 'typebox';
import { EXPORT_FORMATS, parseExportCursor, parseExportTime, writeVoteExport } from '../arena/index.ts';

/** What `npm run votes -- export` asks the server for. */
const ExportQuery = Type.Object({
  format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f))),
  since: Type.Optional(Type.String({ maxLength: 40 })),
  after: Type.Optional(Type.String({ maxLength: 40 })),
});
type ExportQuery = Static<typeof ExportQuery>;

/** Where a server on the embedded store answers `npm run users` while it holds the database. */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, 'admin.sock');
}

/** A Unix socket path must fit in sockaddr_un (108 bytes on Linux, with its NUL). */
const MAX_SOCKET_PATH_BYTES = 107;
const TOO_DEEP = 'DATA_DIR is too deep for the admin socket: npm run users will refuse while the server runs';

/** A path to the admin socket short enough to bind or connect to, and what to close when done with it. */
export interface SocketAddress {
  path: string;
  close(): Promise<void>;
}

/**
 * The admin socket's path, or, when DATA_DIR is too deep for it, the same file reached through an
 * open handle on DATA_DIR (`/proc/self/fd/N/admin.sock`, Linux). Null where neither fits.
 */
export async function reachAdminSocket(dataDir: string): Promise<SocketAddress | null> {
  const socketPath = adminSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES) return { path: socketPath, close: async () => undefined };
  if (process.platform !== 'linux') return null;
  let folder: FileHandle;
  try {
    folder = await open(dataDir, 'r');
  } catch {
    return null;
  }
  return { path: `/proc/self/fd/${folder.fd}/${path.basename(socketPath)}`, close: () => folder.close() };
}

/**
 * The embedded database can be open in one process only, so while the server runs, the users
 * CLI asks it to run the command (the change then takes effect at once), and the votes CLI asks
 * it for the export (streamed as the CLI reads it). The socket is a file in
 * DATA_DIR readable by the server's user only: whoever can reach it could open the database anyway.
 * Returns null when the path is too long for a socket (the CLI then refuses and says why).
 */
export async function listenForAdmin(
  db: Db,
  dataDir: string,
  log: FastifyBaseLogger,
  arena: { dailyRoundBound: number },
): Promise<FastifyInstance | null> {
  const socketPath = adminSocketPath(dataDir);
  const address = await reachAdminSocket(dataDir);
  if (!address) {
    log.warn({ socketPath }, TOO_DEEP);
    return null;
  }
  // Without removeAdditional (Fastify's default strips unknown fields), which would empty the
  // command's other fields while Ajv tries the union's first branch.
  const admin = Fastify({ ...sideServerLogging(log), ajv: { customOptions: { removeAdditional: false } } });
  admin.post<{ Body: UserCommand }>('/users', { schema: { body: UserCommand } }, async (request, reply) => {
    const command = request.body;
    try {
      const message = await runUserCommand(db, command, arena);
      request.log.info({ command: command.command }, 'user command run for the CLI');
      return { message };
    } catch (error) {
      if (error instanceof UserCommandError) return reply.status(409).send({ detail: error.message });
      // The store failed (a full disk, a database gone): said to the operator's terminal and
      // logged here, where it was a bare 500 and no log line.
      request.log.error({ err: error, command: command.command }, 'user command failed');
      const why = error instanceof Error ? error.message : String(error);
      return reply.status(503).send({ detail: `The server could not carry out the command (${why}). Nothing was changed.` });
    }
  });
  // npm run votes -- export: streamed from this server's store, as fast as the CLI reads it.
  admin.get<{ Querystring: ExportQuery }>('/votes/export', { schema: { querystring: ExportQuery } }, async (request, reply) => {
    const since = request.query.since === undefined ? undefined : parseExportTime(request.query.since);
    if (typeof since === 'string') return reply.status(400).send({ detail: `since: ${since} (got "${request.query.since}")` });
    const after = request.query.after === undefined ? undefined : parseExportCursor(request.query.after);
    if (after === null) return reply.status(400).send({ detail: `after must be a cursor an export ended with (got "${request.query.after}")` });
    const out = new PassThrough();
    // The cursor goes in a header, so the rows are sent once it is known (before the first row).
    let started!: (cursor: string) => void;
    const cursor = new Promise<string>((resolve) => (started = resolve));
    const exporting = writeVoteExport(db, { format: request.query.format, since, after, dailyRoundBound: arena.dailyRoundBound, onCursor: started }, out);
    exporting.then(
      ({ rows }) => {
        request.log.info({ rows }, 'votes exported for the CLI');
        out.end();
      },
      (error: unknown) => {
        request.log.error({ err: error }, 'the vote export failed');
        // Cut short, so that the CLI sees an export that did not end and says so.
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
    const ready = await Promise.race([cursor, exporting.then(() => null, () => null)]);
    if (ready === null) return reply.status(503).send({ detail: 'The server could not export the votes now.' });
    return reply
      .header('export-cursor', ready)
      .type(request.query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .send(out);
  });
  // The handle on DATA_DIR is kept until the socket is closed (and its file removed through it).
  admin.addHook('onClose', () => address.close());
  // We hold the data folder's lock, so a socket file left here is a dead server's. A folder in its
  // place is not ours to remove (main checks for one before the start's slow part; this is for a
  // folder made since).
  await rm(socketPath, { force: true }).catch((error: unknown) => {
    if (!['EISDIR', 'ERR_FS_EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    throw folderInTheWay(socketPath);
  });
  try {
    await admin.listen({ path: address.path });
  } catch (error) {
    await admin.close();
    // Through /proc (a deep DATA_DIR) binding may be refused where the plain path was never possible.
    if (address.path === socketPath) throw error;
    log.warn({ socketPath, err: error }, TOO_DEEP);
    return null;
  }
  await chmod(socketPath, 0o600);
  return admin;
}

function folderInTheWay(socketPath: string): ConfigError {
  return new ConfigError(`${socketPath} is a folder, where the server's admin socket goes: move it away, or give the server another DATA_DIR`);
}

/** Refuses, at once, a DATA_DIR where a folder stands at the admin socket's path (which listenForAdmin would find only seconds later). */
export async function checkAdminSocketPath(dataDir: string): Promise<void> {
  const socketPath = adminSocketPath(dataDir);
  const found = await lstat(socketPath).catch(() => undefined);
  if (found?.isDirectory()) throw folderInTheWay(socketPath);
}
