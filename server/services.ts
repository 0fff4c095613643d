import fp from 'fastify-plugin';
import type { AuthService } from './modules/auth/index.ts';
import type { RetrievalEngine } from './modules/search/index.ts';
import type { Db } from './platform/store/db.ts';
import type { SearchLimiter } from './platform/limits/rate-limit.ts';
import { ShownCheck } from './modules/arena/index.ts';
import { Tallier, VoteCheck, VoteService } from './modules/arena/index.ts';

/** What the routes need from the process's settings. */
export interface AppSettings {
  /** Counts searches per address (every instance on one store sees the same counts). */
  searchLimiter: SearchLimiter;
  /** Votes a minute per reader, counted in the store (shared by every instance on it); 0: no limit. */
  voteRateLimit: number;
  /** How many decided rounds a reader a day count in the comparison (ARENA_DAILY_ROUNDS). */
  dailyRoundBound: number;
  now: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    auth: AuthService;
    /** Search and reading in context; null in an app built without models (some tests). */
    engine: RetrievalEngine | null;
    settings: AppSettings;
    /** Saving votes, each checked against what the service shows (docs/arena.md). */
    votes: VoteService;
    /** What the service shows: every saved vote is checked by it (its receipt, or a device's round worked out again). */
    voteCheck: VoteCheck;
    /** Brings saved votes into the tallies, a batch at a time; `catchUp()` before reading them as final. */
    tallier: Tallier;
    /**
     * `draining`: the instance began to shut down, and stops being ready for new work. It still
     * answers what it is sent: once closing, it takes no new connection, and Fastify answers what
     * arrives on an open one (the store stays open until every connection has ended) with
     * `Connection: close`, so each carries at most one more request. A 503 there would tell a
     * proxy nothing more, and nginx does not try another instance on a 503 (that is the
     * database's answer, the same from every instance).
     */
    lifecycle: { draining: boolean };
  }
}

export interface ServicesOptions {
  db: Db;
  auth: AuthService;
  engine: RetrievalEngine | null;
  /**
   * Every name (`model_type`) this version serves under either lineup: a vote for one the engine
   * cannot run is `unchecked` (checked again at a later start), for any other name `unknown-model`.
   */
  servedModelTypes: string[];
  settings: AppSettings;
  /** Close the store when the app closes (the process owns it; a test's shared store is closed by the test). */
  closeStore: boolean;
}

/** The shared services every route reaches as decorators of the app. */
export const services = fp<ServicesOptions>(
  async (app, options) => {
    app.decorate('db', options.db);
    app.decorate('auth', options.auth);
    app.decorate('engine', options.engine);
    app.decorate('settings', options.settings);
    const voteCheck = new VoteCheck(options.db, new ShownCheck(options.engine, options.servedModelTypes), options.engine);
    app.decorate('voteCheck', voteCheck);
    const tallier = new Tallier({
      db: options.db,
      bound: options.settings.dailyRoundBound,
      onError: (error) => app.log.warn({ err: error }, 'votes could not be tallied; they wait for the next run'),
    });
    app.decorate('tallier', tallier);
    app.decorate('votes', new VoteService({ db: options.db, check: voteCheck, voteRateLimit: options.settings.voteRateLimit, tallier, now: options.settings.now }));
    app.decorate('lifecycle', { draining: false });
    // The tallier's run under way ends before the store closes.
    app.addHook('onClose', async () => {
      await tallier.close();
      if (options.closeStore) await options.db.close();
    });
  },
  { name: 'services', fastify: '5.x' },
);
