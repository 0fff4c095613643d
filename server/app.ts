import helmet from '@fastify/helmet';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AuthService } from './auth/auth-service.ts';
import { createLogger } from './log.ts';
import { registerErrorHandling } from './http/errors.ts';
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

/** The Content-Security-Policy the PWA runs under (Fluent UI injects its styles at run time). */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // The server may be reached over plain HTTP on a LAN; don't force https for sub-resources.
  upgradeInsecureRequests: null,
};

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.trustProxy ?? false,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    loggerInstance: deps.logger ?? createLogger(deps.logLevel),
  });
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  await app.register(helmet, {
    contentSecurityPolicy: { directives: CONTENT_SECURITY_POLICY },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(formbody);

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
  await registerStaticFiles(app, deps.staticDir);
  return app;
}
