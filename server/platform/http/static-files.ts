import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { namesAFile } from '../../../contract/app-paths.ts';
import { decodedPath, isApiRequest } from './api-paths.ts';
import { folderOfAsset } from './build-assets.ts';
import { findPrerenderedPages } from './prerendered-pages.ts';

/** Content-hashed build output may be cached for good; everything else must be revalidated. */
function cacheControlFor(filePath: string): string {
  return filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Whether a file has other encodings beside it (the build writes .br and .gz beside each text
 * file, scripts/precompress.ts), or is one: what is sent for its path then depends on the
 * request's Accept-Encoding. Looked up once per file, when it is first sent.
 */
function encodingsLookup(): (filePath: string) => boolean {
  const known = new Map<string, boolean>();
  return (filePath) => {
    let varies = known.get(filePath);
    if (varies === undefined) {
      const plain = filePath.replace(/\.(br|gz)$/, '');
      varies = plain !== filePath || existsSync(`${plain}.br`) || existsSync(`${plain}.gz`);
      known.set(filePath, varies);
    }
    return varies;
  };
}

/**
 * Serves the built PWA, with client routes (paths without a file extension) falling back to
 * index.html, or to the page the build pre-rendered for that route. `/api/*` never falls back:
 * an unknown API path is a JSON 404.
 */
export async function registerStaticFiles(app: FastifyInstance, staticDir: string): Promise<void> {
  const hasBuild = existsSync(path.join(staticDir, 'index.html'));
  if (hasBuild) {
    const hasEncodings = encodingsLookup();
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes .br and .gz beside each text file (scripts/precompress.ts).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.setHeader('cache-control', cacheControlFor(filePath));
        // So that a shared cache keeps each encoding apart instead of sending brotli to all.
        if (hasEncodings(filePath)) res.setHeader('vary', 'accept-encoding');
      },
    });
  } else {
    app.log.warn({ staticDir }, 'no built PWA found; run `npm run build` (npm start does)');
  }
  const prerendered = hasBuild ? findPrerenderedPages(staticDir) : new Map<string, string>();
  app.setNotFoundHandler((request, reply) => {
    const url = decodedPath(request.url) ?? '';
    const reads = request.method === 'GET' || request.method === 'HEAD';
    if (isApiRequest(request)) {
      const allowed = allowedMethods(app, url);
      if (allowed.length > 0) {
        return reply.status(405).header('allow', allowed.join(', ')).send({ detail: `Method not allowed: use ${allowed.join(' or ')}` });
      }
      return reply.status(404).send({ detail: 'Not found' });
    }
    // A hashed file this process did not see at its start: a newer build's, or an earlier one's
    // (a rolling deploy, where pages from either build are open and either instance may answer).
    const asset = hasBuild && reads ? folderOfAsset(staticDir, url) : undefined;
    if (asset) return reply.sendFile(asset.name, asset.root);
    // A client route: a read of a path naming no file.
    if (!reads || namesAFile(url) || !hasBuild) return reply.status(404).send({ detail: 'Not found' });
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile(prerendered.get(url) ?? 'index.html');
  });
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The methods an API path is served by, for a request that came with another: it gets 405 and
 * `Allow` (RFC 9110), so a client that sent GET to POST /api/search is told so, not that the
 * endpoint does not exist. HEAD goes with GET, as the router serves it.
 */
function allowedMethods(app: FastifyInstance, pathname: string): string[] {
  return METHODS.filter((method) => app.findRoute({ method, url: pathname }) !== null);
}
