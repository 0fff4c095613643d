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

/** Whether a decoded path names a file: its last part has an extension (`app.js`, `a.b.png`; not `.well`, nor `..`). */
export function namesAFile(path: string): boolean {
  return /[^./][^/]*\.[^/]*$/.test(path.slice(path.lastIndexOf('/') + 1));
}

/** Whether a navigation to this path (as in the URL) gets the app's page: a path that decodes, not the API's, naming no file. */
export function isAppPagePath(pathname: string): boolean {
  const path = decodePathname(pathname);
  return path !== undefined && !isApiPath(path) && !namesAFile(path);
}
