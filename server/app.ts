import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AuthService } from './auth/auth-service.ts';
import { createLogger } from './log.ts';
import { frameworkErrors, registerErrorHandling } from './http/errors.ts';
import { setSecurityHeaders } from './http/security-headers.ts';
import { registerStaticFiles } from './http/static-files.ts';
import { validatorCompiler } from './http/validation.ts';
import { authRoutes } from './routes/auth.ts';
import { feedbackRoutes } from './routes/feedback.ts';
import { healthRoutes, type HealthSource } from './routes/health.ts';
import { statsRoutes } from './routes/stats.ts';
import type { Db } from './store/db.ts';

export interface AppDeps {
  db: Db;
  auth: AuthService;
  health?: HealthSource;
  staticDir: string;
  trustProxy?: boolean;
  /** The process's logger; tests let the app make a silent one. */
  logger?: FastifyBaseLogger;
  logLevel?: string;
  /** Extra API routes, registered under /api (the retrieval engine adds search). */
  apiPlugins?: Array<(app: FastifyInstance) => Promise<void>>;
}

/** 1 MiB: fifty feedback items at their longest fit well within it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Longer than any route parameter we take, so that the route's own schema names the field. */
const MAX_PARAM_LENGTH = 500;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.trustProxy ?? false,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    loggerInstance: deps.logger ?? createLogger(deps.logLevel),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  // Bodies are JSON unless a route says otherwise (the sign-in form registers its own parser).
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request, reply) => setSecurityHeaders(request, reply));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  await app.register(
    async (api) => {
      await api.register(authRoutes(deps.auth));
      await api.register(feedbackRoutes(deps.db, deps.auth));
      await api.register(healthRoutes(deps.db, deps.health));
      await api.register(statsRoutes(deps.db, deps.auth));
      for (const plugin of deps.apiPlugins ?? []) await api.register(plugin);
    },
    { prefix: '/api' },
  );
  // The sign-in form is sent here only from a page without JavaScript (the app sends it to
  // /api/login): back to the page, which says that signing in needs it. The body is never read.
  await app.register(async (noScript) => {
    noScript.removeAllContentTypeParsers();
    noScript.addContentTypeParser('*', (_request, payload, done) => {
      payload.resume();
      done(null);
    });
    noScript.post('/login', async (_request, reply) => reply.redirect('/login', 303));
  });
  await registerStaticFiles(app, deps.staticDir);
  return app;
}
