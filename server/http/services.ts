import fp from 'fastify-plugin';
import { HttpError } from './errors.ts';
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
    /**
     * `draining`: the instance began to shut down, and stops being ready for new work (it still
     * answers what it is sent). `closing`: it is closing, and answers what arrives on an open
     * connection with a 503 for the proxy to send elsewhere.
     */
    lifecycle: { draining: boolean; closing: boolean };
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
    app.decorate('lifecycle', { draining: false, closing: false });
    app.addHook('preClose', async () => void (app.lifecycle.closing = true));
    app.addHook('onRequest', async (_request, reply) => {
      if (!app.lifecycle.closing) return;
      reply.header('connection', 'close');
      throw new HttpError(503, 'This instance is shutting down. Please try again.', { 'retry-after': '1' });
    });
    if (options.closeStore) app.addHook('onClose', async () => options.db.close());
  },
  { name: 'services', fastify: '5.x' },
);
