import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The API's contract, published: OpenAPI 3.1 made by @fastify/swagger from the routes' own
 * TypeBox schemas (contract/api-schemas.ts) at GET /api/openapi.json, and a reference page to read
 * and try it, @fastify/swagger-ui, at /api/docs. The page's scripts and styles are files of its
 * own, served from here, so the app's Content-Security-Policy holds for it too; it never calls
 * out (no validator badge). Registered before the routes: the spec is collected as they are added.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Alchemy of Happiness search',
        description: 'Search The Alchemy of Happiness by meaning, and say which of two models answered better (docs/api.md).',
        // The contract's own version (docs/api.md), not the package's.
        version: '1',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
