import { request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { UserCommand } from './user-commands.ts';

/** The running server could not be asked (no socket, or nobody listening on it): nothing was sent. */
export class AdminUnreachableError extends Error {}

/** The command was sent, but no answer came in time: it may yet be carried out. */
export class AdminTimeoutError extends Error {}

/** Longer than any command takes (the CLI hashes passwords itself; the server only writes rows). */
const ANSWER_TIMEOUT_MS = 10_000;

/** Asks the server holding the embedded database to run a users command; its message, or an error. */
export function sendUserCommand(socketPath: string, command: UserCommand): Promise<{ ok: boolean; status: number; message: string }> {
  const body = JSON.stringify(command);
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, path: '/users', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            const reply = JSON.parse(text) as { message?: string; detail?: string };
            const ok = res.statusCode === 200;
            resolve({ ok, status: res.statusCode ?? 0, message: (ok ? reply.message : reply.detail) ?? `The server answered ${res.statusCode}` });
          } catch {
            reject(new Error(`The server answered ${res.statusCode} with no readable body`));
          }
        });
      },
    );
    req.on('error', (error) => reject(error instanceof AdminTimeoutError ? error : new AdminUnreachableError(error.message)));
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new AdminTimeoutError(`no answer within ${ANSWER_TIMEOUT_MS / 1000} seconds`)));
    req.end(body);
  });
}

/**
 * Asks the server holding the embedded database for the vote export (GET /votes/export) and
 * pipes it into `out` as it arrives, with back-pressure: the server writes no faster than `out`
 * takes. Fails when the server refuses, or when the export stops before its end.
 */
export function streamVoteExport(
  socketPath: string,
  query: { format: string; since?: Date; after?: string },
  out: NodeJS.WritableStream,
): Promise<{ cursor: string }> {
  const search = new URLSearchParams({
    format: query.format,
    ...(query.since ? { since: query.since.toISOString() } : {}),
    ...(query.after ? { after: query.after } : {}),
  });
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: `/votes/export?${search}`, method: 'GET' }, (res) => {
      if (res.statusCode !== 200) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let detail = `The server answered ${res.statusCode}`;
          try {
            detail = (JSON.parse(text) as { detail?: string }).detail ?? detail;
          } catch {
            // not JSON: the status says it
          }
          reject(new Error(detail));
        });
        return;
      }
      const cursor = String(res.headers['export-cursor'] ?? '');
      pipeline(res, out, { end: false }).then(() => resolve({ cursor }), (error: unknown) =>
        reject(new Error(`the export stopped before its end (${error instanceof Error ? error.message : String(error)})`)),
      );
    });
    req.on('error', (error) => reject(new AdminUnreachableError(error.message)));
    req.end();
  });
}
