import type { FastifyRequest } from 'fastify';
import { decodePathname, isApiPath } from '../../../contract/app-paths.ts';

/**
 * The path of a URL with its percent-escapes undone (`/%61pi/login` is `/api/login`, and the
 * router serves it as that; it keeps `%2F` as it is, this does not, which only ever makes a
 * JSON 404 of what would be a client route); undefined where it cannot be decoded.
 */
export function decodedPath(url: string): string | undefined {
  return decodePathname(url.split('?')[0] ?? '/');
}

/**
 * Whether a request is the API's: by the route it matched, or else by its decoded path, never by
 * the URL's spelling (an encoded `/api` reached the API's routes, but its replies went without
 * `no-store`, and its unknown paths got the app's page). A path that cannot be decoded counts as
 * the API's: it gets a JSON 404 rather than the app.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const path = request.routeOptions.url ?? decodedPath(request.url);
  return path === undefined || isApiPath(path);
}
