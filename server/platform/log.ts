import { LogController, type FastifyBaseLogger } from 'fastify';
import { pino, type DestinationStream } from 'pino';

/** The most of a path one log line holds: a path may run to Node's 16 KB header limit. */
export const LOGGED_PATH_MAX = 512;

/** Paths whose last part is a secret (an invitation link's token: /invite/<token>), with it hidden. */
const SECRET_PATHS = /^(\/+invite\/).+$/i;

function withoutSecrets(path: string): string {
  return path.replace(SECRET_PATHS, '$1[redacted]');
}

/**
 * A request as the log shows it: its path (an invitation's token hidden), never its query string (which may carry a secret), cut
 * at LOGGED_PATH_MAX characters with its full length beside it, so an attacker's 16 KB paths
 * cannot make each of their requests a 16 KB line. A request the HTTP parser refused has no path
 * to tell, and shows none.
 */
export function serializeRequest(request: { method?: string; url?: string; id?: string; ip?: string }) {
  const url = request.url;
  const queryAt = url === undefined ? -1 : url.indexOf('?');
  const path = url === undefined ? undefined : withoutSecrets(queryAt === -1 ? url : url.slice(0, queryAt));
  const long = path !== undefined && path.length > LOGGED_PATH_MAX;
  return {
    method: request.method,
    ...(path === undefined ? {} : { path: long ? `${path.slice(0, LOGGED_PATH_MAX)}…` : path }),
    ...(long ? { pathLength: path.length } : {}),
    ...(queryAt === -1 ? {} : { query: '[redacted]' }),
    remoteAddress: request.ip,
  };
}

/**
 * An error as the log shows it: its kind, message, code and stack. Drivers hang the SQL and its
 * parameters on their errors (PGlite's `params` held a vote's text); those never reach the log.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const e = error as Error & { code?: unknown; cause?: unknown };
  return {
    type: e.constructor.name,
    message: e.message,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    stack: e.stack,
    ...(e.cause !== undefined ? { cause: serializeError(e.cause) } : {}),
  };
}

/**
 * What the driver said, with its code (a SQLSTATE or a network error's), for the lines an outage
 * writes many of (a request answered 503, a readiness check, a pooled connection lost): a stack
 * apiece tells an operator nothing more. An error that wraps another (StoreUnavailableError) is
 * told by the one it wraps, whose words are the driver's.
 */
export function driverWords(error: unknown): { message: string; code?: string } {
  let cause = error;
  while (cause instanceof Error && cause.cause !== undefined) cause = cause.cause;
  if (!(cause instanceof Error)) return { message: String(cause) };
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' ? { message: cause.message, code } : { message: cause.message };
}

/** How log lines are written: one JSON object each (for an operator's tools), or a sentence each (for a person at a terminal). */
export type LogFormat = 'json' | 'text';

const LEVEL_WORDS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/**
 * The field that marks an info line as an operator's detail (which indexes came from the cache,
 * the migrations applied, the store's kind, the ready line's timings): kept in the JSON format,
 * left out of the text a person at a terminal reads, which keeps to what they act on.
 */
export const OPERATOR_DETAIL = { detail: 'operator' } as const;

/** Fastify's own line for each address it listens on: the text format's address line says it once. */
const LISTENING = 'Server listening at ';

/**
 * One JSON log line as a person reads it: its message, after its level when that is worse than
 * info, with the error's message, or a request's method, path, status and time. An operator's
 * detail at info or below (OPERATOR_DETAIL, Fastify's listening lines) is '' (not written).
 */
export function textLine(json: string): string {
  let entry: { level?: number; msg?: string; detail?: string; err?: { message?: string }; req?: { method?: string; path?: string }; statusCode?: number; ms?: number };
  try {
    entry = JSON.parse(json) as typeof entry;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = LEVEL_WORDS[entry.level ?? 30];
  if (!level && (entry.detail === OPERATOR_DETAIL.detail || entry.msg?.startsWith(LISTENING))) return '';
  let text = entry.msg ?? '';
  if (entry.req && entry.statusCode !== undefined) text = `${entry.req.method} ${entry.req.path ?? ''} ${entry.statusCode} (${entry.ms} ms)`;
  if (entry.err?.message) text += `: ${entry.err.message}`;
  return `${level ? `${level}: ` : ''}${text}\n`;
}

/** A pino destination writing each line as `textLine` makes it. */
export function textDestination(out: Pick<NodeJS.WritableStream, 'write'> = process.stdout): DestinationStream {
  return {
    write: (line: string) => {
      const text = textLine(line);
      if (text) out.write(text);
    },
  };
}

/** Structured logs that never hold credentials, tokens, request bodies, query strings or SQL parameters. */
export function createLogger(level = 'info', destination?: DestinationStream): FastifyBaseLogger {
  const options = {
    level,
    serializers: { req: serializeRequest, err: serializeError, error: serializeError },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body', 'body', 'password', 'refresh_token', 'access_token'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Fastify's logging for a side server (the admin socket, metrics): the app's logger, no line per request. */
export function sideServerLogging(log: FastifyBaseLogger): { loggerInstance: FastifyBaseLogger; logController: LogController } {
  return { loggerInstance: log, logController: new LogController({ disableRequestLogging: true }) };
}
