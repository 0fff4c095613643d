import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_SAVE_ITEMS } from '../../../contract/api-schemas.ts';
import { shippedBookFile } from './book-file.ts';
import type { LogFormat } from '../log.ts';

/** Every server setting, read once from the environment (see README "Settings"). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  corpusFile: string;
  modelsDir: string;
  modelLineup: 'auto' | 'neural' | 'corpus';
  bgeModel: string;
  uaeModel: string;
  modelDtype: 'q8' | 'fp32';
  modelFetch: 'auto' | 'never';
  hfEndpoint: string;
  demoPassword: string | undefined;
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshOverlapSeconds: number;
  sessionIdleSeconds: number;
  sessionAbsoluteSeconds: number;
  searchRateLimit: number;
  /** Votes a minute per reader, across all instances; 0: no limit. */
  voteRateLimit: number;
  /** Tries a minute per address at checking or taking an invitation, across all instances; 0: no limit. */
  inviteRateLimit: number;
  /** Where readers reach the app (PUBLIC_URL, no trailing slash): invitation links start with it. */
  publicUrl: string | undefined;
  /** Decided rounds a reader a day that count in the arena's comparison (ARENA_DAILY_ROUNDS). */
  dailyRoundBound: number;
  /** ARENA_ARMS read as JSON (the search module checks what it says), or undefined: the served pool. */
  arenaArms: unknown;
  /** How long a start waits for a PostgreSQL that does not answer yet. */
  databaseWaitSeconds: number;
  /** Prometheus metrics on this port, apart from the public one; off when unset. */
  metricsPort: number | undefined;
  staticDir: string;
  /** How many proxies stand in front of the server (TRUST_PROXY); 0: none, the peer is the reader. */
  trustProxy: number;
  logLevel: string;
  /** LOG_FORMAT: `json` (a JSON object a line) or `text` (a sentence a line); by default text on a terminal, JSON otherwise. */
  logFormat: LogFormat;
}

export class ConfigError extends Error {}

/**
 * How many decided rounds a reader a day count in the comparison, unless ARENA_DAILY_ROUNDS says
 * otherwise: a keen reader's afternoon, and no reader decides the leaderboard alone (docs/arena.md).
 */
export const DEFAULT_DAILY_ROUND_BOUND = 30;

/** VOTE_RATE_LIMIT: 0 (off), or room for at least one whole batch of 50, which could otherwise never be sent. */
function voteRateLimit(env: NodeJS.ProcessEnv): number {
  const limit = intSetting(env, 'VOTE_RATE_LIMIT', 600, 0);
  if (limit > 0 && limit < MAX_SAVE_ITEMS) {
    throw new ConfigError(`VOTE_RATE_LIMIT must be 0 (no limit) or at least ${MAX_SAVE_ITEMS}, one batch of votes (got "${env.VOTE_RATE_LIMIT}")`);
  }
  return limit;
}

function intSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Digits only: Number() also reads "1e3", "0x10" and " 80" as numbers, which a typo should not be.
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new ConfigError(`${name} must be a whole number ${range} (got "${raw}")`);
  }
  return value;
}

/**
 * DATABASE_URL, checked before any connection where it is plainly malformed: a '#' in an
 * unencoded password makes the rest a fragment and part of the password the host, a bad port or
 * another scheme. Forms the driver reads otherwise (a Unix socket: postgres:///db?host=/run/postgresql,
 * socket:…, a host from PGHOST) pass. Its text is never repeated: it holds the password.
 */
function databaseUrlSetting(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.DATABASE_URL;
  if (!raw) return undefined;
  const refused = new ConfigError(
    'DATABASE_URL is not a valid PostgreSQL URL: postgres://user:password@host:5432/database, with characters such as / ? # @ in the password percent-encoded',
  );
  if (raw.startsWith('/') || raw.startsWith('socket:')) return raw;
  let url: URL;
  try {
    // user:password@/database?host=/socket has no host: the driver reads it with a stand-in one.
    url = new URL(/^postgres(ql)?:\/\/[^/]*@\//.test(raw) ? raw.replace('@/', '@socket/') : raw);
  } catch {
    throw refused;
  }
  if ((url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.hash !== '') throw refused;
  return raw;
}

const DAY = 24 * 60 * 60;

/** The most proxies TRUST_PROXY may name in a row. */
const MAX_PROXY_HOPS = 10;

/**
 * TRUST_PROXY: how many proxies stand in front of the server, each adding the address it saw to
 * X-Forwarded-For: false or 0, none; true or 1, one; 2 to 10, that many in a row. The reader is the
 * address the furthest of them saw, never one a client wrote into the header itself. Anything
 * else is refused rather than read as false, which behind a proxy would put every reader at the
 * proxy's address.
 */
function trustProxySetting(env: NodeJS.ProcessEnv): number {
  const raw = (env.TRUST_PROXY ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false') return 0;
  if (raw === 'true') return 1;
  if (/^\d{1,2}$/.test(raw) && Number(raw) <= MAX_PROXY_HOPS) return Number(raw);
  throw new ConfigError(
    `TRUST_PROXY must be false, true, or how many proxies stand in front of the server, 0 to ${MAX_PROXY_HOPS} (got "${env.TRUST_PROXY}")`,
  );
}

/** PUBLIC_URL: an http or https URL with no query or fragment; kept without its trailing slash. */
function publicUrlSetting(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`PUBLIC_URL must be the http or https address readers open the app at, such as https://alchemy.example.org (got "${raw}")`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The address the app is reached at, for links given to readers: PUBLIC_URL, else the address the
 * server listens on (a wildcard HOST, which no browser can open, as 127.0.0.1).
 */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * ARENA_ARMS: the arena's weight-free arms as JSON (docs/arena-pool.md), written inline (it starts
 * with `[`) or in a file it names. Only read here; what the arms say is checked by the search
 * module before anything starts (main.ts).
 */
function arenaArmsSetting(env: NodeJS.ProcessEnv): unknown {
  const raw = env.ARENA_ARMS?.trim();
  if (!raw) return undefined;
  let text = raw;
  let where = 'ARENA_ARMS';
  if (!raw.startsWith('[')) {
    where = `ARENA_ARMS's file ${path.resolve(raw)}`;
    try {
      text = readFileSync(raw, 'utf8');
    } catch (error) {
      throw new ConfigError(`ARENA_ARMS must be a JSON list of arms or a file holding one, but ${path.resolve(raw)} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
}

/** LOG_FORMAT: json or text; unset, text on a terminal and JSON otherwise. */
function logFormatSetting(env: NodeJS.ProcessEnv): LogFormat {
  const value = env.LOG_FORMAT || (process.stdout.isTTY ? 'text' : 'json');
  if (value !== 'json' && value !== 'text') throw new ConfigError(`LOG_FORMAT must be json or text (got "${value}")`);
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const lineup = env.MODEL_LINEUP ?? 'auto';
  if (lineup !== 'auto' && lineup !== 'neural' && lineup !== 'corpus') {
    throw new ConfigError(`MODEL_LINEUP must be auto, neural or corpus (got "${lineup}")`);
  }
  const dtype = env.MODEL_DTYPE || 'q8';
  if (dtype !== 'q8' && dtype !== 'fp32') throw new ConfigError(`MODEL_DTYPE must be q8 or fp32 (got "${dtype}")`);
  const modelFetch = env.MODEL_FETCH || 'auto';
  if (modelFetch !== 'auto' && modelFetch !== 'never') throw new ConfigError(`MODEL_FETCH must be auto or never (got "${modelFetch}")`);
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 bytes (256 bits)');
  }
  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port: intSetting(env, 'PORT', 8080, 0, 65535),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: databaseUrlSetting(env),
    corpusFile: env.CORPUS_FILE ? path.resolve(env.CORPUS_FILE) : shippedBookFile(),
    modelsDir: path.resolve(env.MODELS_DIR || './models'),
    modelLineup: lineup,
    bgeModel: env.BGE_MODEL || 'Xenova/bge-small-en-v1.5',
    uaeModel: env.UAE_MODEL || 'WhereIsAI/UAE-Large-V1',
    modelDtype: dtype,
    modelFetch,
    hfEndpoint: env.HF_ENDPOINT || 'https://huggingface.co',
    demoPassword: env.DEMO_PASSWORD || undefined,
    jwtSecret,
    // Access tokens are short-lived: a day at most (a leaked one works until it expires).
    accessTokenTtlSeconds: intSetting(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 10, DAY),
    refreshOverlapSeconds: intSetting(env, 'REFRESH_OVERLAP_SECONDS', 30, 0, 3600),
    sessionIdleSeconds: intSetting(env, 'SESSION_IDLE_DAYS', 14, 1, 3650) * DAY,
    sessionAbsoluteSeconds: intSetting(env, 'SESSION_ABSOLUTE_DAYS', 30, 1, 3650) * DAY,
    searchRateLimit: intSetting(env, 'SEARCH_RATE_LIMIT', 120, 0),
    voteRateLimit: voteRateLimit(env),
    inviteRateLimit: intSetting(env, 'INVITE_RATE_LIMIT', 10, 0),
    publicUrl: publicUrlSetting(env),
    dailyRoundBound: intSetting(env, 'ARENA_DAILY_ROUNDS', DEFAULT_DAILY_ROUND_BOUND, 1),
    arenaArms: arenaArmsSetting(env),
    databaseWaitSeconds: intSetting(env, 'DATABASE_WAIT_SECONDS', 60, 0),
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    trustProxy: trustProxySetting(env),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormatSetting(env),
    metricsPort: env.METRICS_PORT ? intSetting(env, 'METRICS_PORT', 0, 1, 65535) : undefined,
  };
  if (!LOG_LEVELS.includes(config.logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${config.logLevel}")`);
  if (config.metricsPort !== undefined && config.metricsPort === config.port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (both ${config.port}): metrics are never served on the public port`);
  }
  return config;
}
