import fp from 'fastify-plugin';
import type { AuthService } from '../auth/auth-service.ts';
import type { RetrievalEngine } from '../search/retrieval-engine.ts';
import type { Db } from '../store/db.ts';
import type { SearchLimiter } from './rate-limit.ts';

/** What the routes need from the process's settings. */
export interface AppSettings {
  /** Counts searches per address (every instance on one store sees the same counts). */
  searchLimiter: SearchLimiter;
  now: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    auth: AuthService;
    /** Search and reading in context; null in an app built without models (some tests). */
    engine: RetrievalEngine | null;
    settings: AppSettings;
    /** Set when the instance begins to shut down: it stops being ready for new work. */
    lifecycle: { draining: boolean };
  }
}

export interface ServicesOptions {
  db: Db;
  auth: AuthService;
  engine: RetrievalEngine | null;
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
    app.decorate('lifecycle', { draining: false });
    if (options.closeStore) app.addHook('onClose', async () => options.db.close());
  },
  { name: 'services', fastify: '5.x' },
);
