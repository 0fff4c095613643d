import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { buildApp, type AppDeps } from '../../server/app.ts';
import { staticKeyRing, StoredKeyRing } from '../../server/modules/auth/key-ring.ts';
import type { KeyRing } from '../../server/modules/auth/tokens.ts';
import { AuthService, type AuthSettings } from '../../server/modules/auth/auth-service.ts';
import { hashPassword } from '../../server/modules/auth/passwords.ts';
import { openEmbeddedDb, openPostgresDb, type Db } from '../../server/platform/store/db.ts';
import { migrate } from '../../server/platform/store/migrate.ts';
import { insertUser } from '../../server/modules/auth/sql/users.ts';
import { storeFromImage } from '../run-fixtures.ts';
import { expect } from 'vitest';
import type { FeedbackItem, SaveReply, SearchResult, Stats } from '../../contract/api-schemas.ts';
import { readCounts, readReaderPairs } from '../../server/modules/arena/sql/read-tallies.ts';
import { DEFAULT_DAILY_ROUND_BOUND } from '../../server/platform/config/config.ts';
import { saveFeedback, type CheckedFeedback } from '../../server/modules/arena/sql/feedback.ts';
import { tallyPending } from '../../server/modules/arena/sql/tallies.ts';
import { injectFetch } from './inject-fetch.ts';

export type StoreKind = 'embedded' | 'postgres';

/** PGlite always; PostgreSQL too whenever TEST_DATABASE_URL is set (CI sets it). */
export const STORES: StoreKind[] = process.env.TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

export interface TestDb {
  db: Db;
  drop(): Promise<void>;
}

export interface TestDbOptions {
  /**
   * An in-memory PGlite made by initdb and migrated here, for a test of the migrations
   * themselves; else it starts as a copy of the run's migrated database (tests/run-fixtures.ts),
   * in a fraction of initdb's time. (PostgreSQL's schema is always migrated here.)
   */
  fresh?: boolean;
}

/** A fresh, migrated database: in-memory PGlite, or a schema of its own in PostgreSQL. */
export async function openTestDb(kind: StoreKind, options: TestDbOptions = {}): Promise<TestDb> {
  if (kind === 'embedded') {
    const copied = options.fresh ? undefined : await storeFromImage();
    const db = copied ?? (await openEmbeddedDb());
    if (!copied) await migrate(db);
    return { db, drop: () => db.close() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const db = await openPostgresDb(url, { schema });
  await migrate(db);
  return {
    db,
    async drop() {
      await db.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** The arena's bound on decided rounds a reader a day, as a server started without ARENA_DAILY_ROUNDS has it. */
export const BOUND = DEFAULT_DAILY_ROUND_BOUND;

/**
 * Stores a reader's checked votes as a save does, and brings them into the tallies at once, as the
 * tallier would a moment later (`bound`: ARENA_DAILY_ROUNDS, 30 unless said).
 */
export async function saveAndTally(db: Db, author: string, items: CheckedFeedback[], savedAt = new Date(), bound = BOUND): Promise<SaveReply> {
  const reply = await saveFeedback(db, author, items, savedAt);
  await tallyPending(db, bound);
  return reply;
}

/**
 * A vote as a save stores it once checked: `reader`'s on `model`'s passage `passageId` for
 * question `q`, in round `round` of a server-drawn LSA–SIF pair, shown (or, `not-shown`, on no
 * pair).
 */
export function checkedVote(
  reader: string,
  round: string,
  q: string,
  model: string,
  label: 'A' | 'B',
  reaction: string,
  passageId: string,
  verdict: 'shown' | 'not-shown' = 'shown',
): CheckedFeedback {
  return {
    ...(voteItem({ username: reader, model_type: model, result_label: label, reaction, client_id: randomUUID(), round_id: round }) as FeedbackItem),
    questionId: q, passageId, passageSet: 'now', passageSha256: null, verdict, drawnBy: 'server', drawnPair: verdict === 'shown' ? 'LSA\nSIF' : null,
  };
}

/** A reader's decided round on question `q`: LSA's and SIF's first passages, rated `a` and `b`. */
export function decidedRound(reader: string, q: string, a: string, b: string): CheckedFeedback[] {
  const round = randomUUID();
  return [checkedVote(reader, round, q, 'LSA', 'A', a, `${q}-LSA`), checkedVote(reader, round, q, 'SIF', 'B', b, `${q}-SIF`)];
}

/** The tallies as the statistics read them: the counters (bar 'changes', which only goes up) and each reader's pairs. */
export async function talliesOf(db: Db) {
  const counts = [...(await readCounts(db))].filter(([name, n]) => name !== 'changes' && n !== 0).sort();
  return { counts, pairs: await readReaderPairs(db) };
}

/** One vote as the app sends it to /api/save; a test changes what it needs. */
export function voteItem(overrides: Record<string, unknown> = {}) {
  return {
    user_type: 'Enthusiast',
    username: 'reader',
    query: 'patience',
    retrieved_text: 'Patience is half of faith.',
    model_type: 'X',
    result_label: 'A',
    reaction: '👍',
    confidence_score: 0.5,
    ...overrides,
  };
}

/** A round's vote on a search's result: voteItem with the result's passage, model and receipt (when it has one), a new client_id. */
export function roundVote(query: string, result: { text: string; model_type: string; receipt?: string }, label: 'A' | 'B', reaction: string, round: string, userType = 'Enthusiast') {
  return voteItem({
    user_type: userType,
    query,
    retrieved_text: result.text,
    model_type: result.model_type,
    result_label: label,
    reaction,
    client_id: randomUUID(),
    round_id: round,
    ...(result.receipt === undefined ? {} : { receipt: result.receipt }),
  });
}

/** A clock the tests move by hand. */
export class TestClock {
  constructor(public ms = Date.now()) {}
  readonly now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export const TEST_SETTINGS: AuthSettings = {
  accessTokenTtlSeconds: 900,
  refreshOverlapSeconds: 30,
  sessionIdleSeconds: 14 * 86400,
  sessionAbsoluteSeconds: 30 * 86400,
};

// A plain Uint8Array of the realm running the test (jsdom's, in the client suites), as jose expects.
export const TEST_KEY = new Uint8Array(Buffer.from('a-test-signing-key-of-at-least-32-bytes!!'));

export interface TestServer {
  url: string;
  app: FastifyInstance;
  db: Db;
  auth: AuthService;
  clock: TestClock;
  close(): Promise<void>;
  api(pathname: string, init?: RequestInit & { json?: unknown; token?: string }): Promise<Response>;
  login(username: string, password: string): Promise<Response>;
  addUser(username: string, password: string): Promise<void>;
  /** A new reader of a name of its own, signed in: the name and its access token. */
  newReader(password: string): Promise<{ name: string; token: string }>;
}

export interface TestServerOptions {
  /** Another instance's store, for two servers on one database (it stays open when this one closes). */
  sharedDb?: Db;
  settings?: Partial<AuthSettings>;
  staticDir?: string;
  extra?: Partial<AppDeps>;
  /** Sign with the keys in the store, as instances without JWT_SECRET do (else one fixed test key). */
  storedKeys?: { reloadIntervalMs?: number };
  /** Routes a test adds under /api, before the server listens. */
  testRoutes?: FastifyPluginAsync;
  /**
   * `api()` sends real HTTP requests to the port, for the tests of HTTP itself; else it hands
   * them to `app.inject`, as fetch would have sent them (tests/server/inject-fetch.ts). The
   * server listens at `url` either way.
   */
  http?: boolean;
}

/** A real server on a random local port, over a fresh store. */
export async function startTestServer(kind: StoreKind, options: TestServerOptions = {}): Promise<TestServer> {
  const { db, drop } = options.sharedDb ? { db: options.sharedDb, drop: async () => undefined } : await openTestDb(kind);
  const clock = new TestClock();
  const settings = { ...TEST_SETTINGS, ...options.settings };
  let keys: KeyRing = staticKeyRing(TEST_KEY);
  if (options.storedKeys) {
    const ring = new StoredKeyRing(db, { accessTokenTtlSeconds: settings.accessTokenTtlSeconds, now: clock.now, ...options.storedKeys });
    await ring.start();
    keys = ring;
  }
  const auth = new AuthService(db, keys, settings, clock.now);
  const staticDir = options.staticDir ?? (await mkdtemp(path.join(tmpdir(), 'no-build-')));
  const app = await buildApp({ db, auth, staticDir, logLevel: process.env.TEST_LOG ?? 'silent', ...options.extra });
  if (options.testRoutes) await app.register(options.testRoutes, { prefix: '/api' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;

  const send = options.http ? fetch : injectFetch(app, url);
  const api: TestServer['api'] = (pathname, init = {}) => {
    const { json, token, headers, ...rest } = init;
    const allHeaders = new Headers(headers);
    if (json !== undefined) allHeaders.set('content-type', 'application/json');
    if (token) allHeaders.set('authorization', `Bearer ${token}`);
    return send(url + pathname, {
      method: json !== undefined ? 'POST' : 'GET',
      ...rest,
      headers: allHeaders,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };

  const login = (username: string, password: string) =>
    api('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password, grant_type: 'password' }).toString(),
    });
  const addUser = async (username: string, password: string) => {
    await insertUser(db, username, await hashPassword(password));
  };

  return {
    url,
    app,
    db,
    auth,
    clock,
    api,
    login,
    addUser,
    async newReader(password) {
      const name = `r${randomUUID().slice(0, 8)}`;
      await addUser(name, password);
      const token = ((await (await login(name, password)).json()) as { access_token: string }).access_token;
      return { name, token };
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

export async function writeFakeBuild(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fake-build-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>shell</title><div id="root"></div>');
  await mkdir(path.join(dir, 'prerendered'));
  await writeFile(path.join(dir, 'prerendered', 'login.html'), '<!doctype html><title>login</title><div id="root"><form></form></div>');
  await mkdir(path.join(dir, 'prerendered', 'read'));
  await writeFile(path.join(dir, 'prerendered', 'read', 'ch4.html'), '<!doctype html><title>ch4</title><div id="root"><article></article></div>');
  // As the build leaves a script: hashed, with its brotli and gzip beside it; and one left plain.
  await mkdir(path.join(dir, 'assets'));
  const script = 'console.log("the app");'.repeat(20);
  await writeFile(path.join(dir, 'assets', 'app-abc123.js'), script);
  await writeFile(path.join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
  await writeFile(path.join(dir, 'assets', 'app-abc123.js.gz'), gzipSync(script));
  await writeFile(path.join(dir, 'assets', 'tiny-abc123.js'), '1');
  return dir;
}

/**
 * Readers of a test server, each signed in as it is made, who search, vote and read /api/stats
 * through its API by name: the arena's suites. `server` is asked for as they act (a suite starts
 * it in beforeAll). A search or a save that is not answered 200 fails the test, saying why.
 */
export function arenaReaders(server: () => TestServer, password: string) {
  const tokens = new Map<string, string>();
  const token = (name: string) => tokens.get(name)!;
  return {
    token,
    /** A new reader, signed in: their name. */
    async reader(): Promise<string> {
      const { name, token: access } = await server().newReader(password);
      tokens.set(name, access);
      return name;
    },
    /** A search as `name` (or no one): its results carry the receipt their votes copy. */
    async search(name: string | null, query: string, more: Record<string, unknown> = {}): Promise<SearchResult[]> {
      const res = await server().api('/api/search', { json: { query, ...more }, ...(name === null ? {} : { token: token(name) }) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as SearchResult[];
    },
    async save(name: string, items: unknown[]): Promise<unknown> {
      const res = await server().api('/api/save', { token: token(name), json: { items } });
      expect(res.status, await res.clone().text()).toBe(200);
      return res.json();
    },
    /** /api/stats as `name` asks for it (the same for every reader): by default the first reader made. */
    async stats(name: string = tokens.keys().next().value!): Promise<Stats> {
      return (await (await server().api('/api/stats', { token: token(name) })).json()) as Stats;
    },
  };
}

/** The first result of each of a search's two arms, in the order shown. */
export const firstOfEachArm = (results: SearchResult[]): SearchResult[] =>
  results.filter((r, i) => results.findIndex((o) => o.model_type === r.model_type) === i).slice(0, 2);
