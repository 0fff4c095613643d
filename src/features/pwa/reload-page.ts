let reloading = false;

/** Reloads the page, once however often it is asked. */
export function reloadPage(): void {
  if (reloading) return;
  reloading = true;
  window.location.reload();
}

/** Whether the page is on its way to a reload: what it shows meanwhile is about to go. */
export function reloadUnderWay(): boolean {
  return reloading;
}

const LAST_RELOAD_KEY = 'alchemy:reloaded-for-missing-code';

/** How long after a reload for missing code another is not tried: the code is missing for good. */
export const MISSING_CODE_RELOAD_PAUSE_MS = 30_000;

/**
 * Whether a page whose code for a route failed to load should reload to get it: the code of the
 * version it was loaded with is gone (a newer version's worker took over the page, or a deploy
 * replaced the build), and a reload loads the current version's. Not again within a pause of the
 * last such reload (the code is missing for good, and the crash screen says so), nor with no
 * network and no worker to load the page from.
 */
export function shouldReloadForMissingCode(lastReloadAt: number | null, now: number, canLoadPage: boolean): boolean {
  if (!canLoadPage) return false;
  return lastReloadAt === null || lastReloadAt > now || now - lastReloadAt >= MISSING_CODE_RELOAD_PAUSE_MS;
}

/** Whether the server answers this page now (with no worker in control, a reload goes to it). */
async function serverAnswersPage(): Promise<boolean> {
  try {
    const response = await fetch(window.location.href, { method: 'HEAD', cache: 'no-store', redirect: 'manual' });
    return response.ok && /^text\/html/i.test(response.headers.get('content-type') ?? '');
  } catch {
    return false;
  }
}

/**
 * Reloads the page when a route's code fails to load (vite's `vite:preloadError`), as above. A
 * page under the service worker reloads from it at once; one without asks the server first, so
 * that a server that does not answer leaves the crash screen, not the browser's error page.
 */
export function reloadWhenCodeIsMissing(): void {
  window.addEventListener('vite:preloadError', () => {
    const controlled = Boolean(navigator.serviceWorker?.controller);
    try {
      const last = Number(sessionStorage.getItem(LAST_RELOAD_KEY)) || null;
      if (!shouldReloadForMissingCode(last, Date.now(), navigator.onLine || controlled)) return;
      sessionStorage.setItem(LAST_RELOAD_KEY, String(Date.now()));
    } catch {
      return; // No session storage: no way to tell a loop from a first try, so the crash screen says it.
    }
    if (controlled) reloadPage();
    else void serverAnswersPage().then((answers) => answers && reloadPage());
  });
}
