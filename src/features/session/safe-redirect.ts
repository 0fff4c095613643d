/** Where /token-refresh goes when it is given no target, or one it may not go to. */
export const DEFAULT_REDIRECT = '/dashboard';

/**
 * A redirect target made safe: only a path on this site, as the browser will read it. The target
 * is parsed as the browser parses a URL (which drops tabs and newlines, and reads `\` as `/`), so
 * `/\t/evil.example` is the other site it would become, and is refused; what is returned is the
 * parsed path, which must not begin with `//` either, or the browser would read it as a host.
 */
export function safeRedirect(target: string | null, origin: string): string {
  if (!target?.startsWith('/')) return DEFAULT_REDIRECT;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return DEFAULT_REDIRECT;
  }
  // A path that still begins with // (`/.//evil.example` parses to it) would be read as a host.
  if (url.origin !== origin || url.pathname.startsWith('//')) return DEFAULT_REDIRECT;
  return `${url.pathname}${url.search}${url.hash}`;
}
