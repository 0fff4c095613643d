import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

/** Every route docs/api.md documents ("## GET /api/passages/:id/context", two on one heading too), as OpenAPI writes it. */
async function documentedRoutes(): Promise<Array<{ method: string; path: string }>> {
  const text = await readFile(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
  const routes: Array<{ method: string; path: string }> = [];
  for (const heading of text.split('\n').filter((line) => line.startsWith('## '))) {
    for (const [, method, route] of heading.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s,;]+)/g)) {
      routes.push({ method: method!.toLowerCase(), path: route!.replace(/:(\w+)/g, '{$1}') });
    }
  }
  return routes;
}

describe('the published contract', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('embedded', { http: true });
  });
  afterAll(() => server.close());

  it('is OpenAPI 3.1 at /api/openapi.json, listing every route docs/api.md documents, with its schemas', async () => {
    const res = await server.api('/api/openapi.json');
    expect(res.status).toBe(200);
    const spec = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>> };
    expect(spec.openapi).toBe('3.1.0');
    const routes = await documentedRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) expect(spec.paths[route.path]?.[route.method], `${route.method} ${route.path}`).toBeDefined();
    // Made from the routes' TypeBox schemas: the search's body and reply are there.
    const search = spec.paths['/api/search']!.post!;
    expect(JSON.stringify(search.requestBody)).toContain('top_k');
    expect(JSON.stringify(search.responses?.['200'])).toContain('highlight');
    // The docs' own routes are not part of the contract.
    expect(Object.keys(spec.paths).filter((p) => p.startsWith('/api/docs') || p === '/api/openapi.json')).toEqual([]);
  });

  it('has a reference page at /api/docs that runs under the app’s Content-Security-Policy: its scripts are files of the server', async () => {
    const res = await server.api('/api/docs', { redirect: 'follow' });
    expect(res.status).toBe(200);
    // The app's own policy, as every page of it has, not one loosened for the docs.
    const appPolicy = (await server.api('/api/health')).headers.get('content-security-policy');
    expect(appPolicy).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toBe(appPolicy);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      // No inline script (the policy would block it), and none from another origin.
      expect(body!.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes!)?.[1];
      expect(src).toBeDefined();
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const script = await server.api(new URL(src!, res.url).pathname);
      expect(script.status, src).toBe(200);
      expect(await script.text()).toContain('function');
    }
  });
});
