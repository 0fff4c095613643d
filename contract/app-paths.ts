// Which paths are the API's, which name a file and which are the app's pages: the server and the
// service worker decide alike, so that what the worker answers offline is what the server would.

/** A URL path with its percent-escapes undone (`/%61pi` is `/api`); undefined where it cannot be decoded. */
export function decodePathname(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

/** Whether a decoded path is the API's: `/api` and everything under it. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** Routes of the app under which every path is a page (a reading's id is never a file's name, whatever it ends with). */
const PAGE_PREFIXES = ['/read/'];

/**
 * Whether a decoded path names a file: its last part has an extension (`app.js`, `a.b.png`; not
 * `.well`, `..`, nor a trailing full stop, as in a link copied with the sentence's), outside the
 * app's routes.
 */
export function namesAFile(path: string): boolean {
  if (PAGE_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
  return /[^./][^/]*\.[^/.]+$/.test(path.slice(path.lastIndexOf('/') + 1));
}

/** Whether a navigation to this path (as in the URL) gets the app's page: a path that decodes, not the API's, naming no file. */
export function isAppPagePath(pathname: string): boolean {
  const path = decodePathname(pathname);
  return path !== undefined && !isApiPath(path) && !namesAFile(path);
}
