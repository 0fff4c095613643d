import { describe, expect, it } from 'vitest';
import { isAppPagePath } from '../../contract/app-paths.ts';
import { MISSING_CODE_RELOAD_PAUSE_MS, shouldReloadForMissingCode } from '../../src/features/pwa/reload-page.ts';

describe('which navigations the service worker answers with the app’s page', () => {
  it('answers the app’s pages, whatever the route', () => {
    for (const path of ['/', '/dashboard', '/read/ch3-2', '/token-refresh', '/some/unknown/path', '/.well', '/apis', '/api-docs', '/about.']) {
      expect(isAppPagePath(path), path).toBe(true);
    }
  });

  it('leaves the API to the server, however its path is spelt', () => {
    for (const path of ['/api', '/api/', '/api/health', '/%61pi/health', '/%61%70%69', '/%61pi/login']) {
      expect(isAppPagePath(path), path).toBe(false);
    }
  });

  it('answers a reading’s link, whatever its id ends with (a link copied with its sentence’s full stop)', () => {
    for (const path of ['/read/ch8-19.', '/read/ch3-2.html', '/read/ch1-1)']) {
      expect(isAppPagePath(path), path).toBe(true);
    }
  });

  it('leaves a file, and a path that does not decode, to the server: its 404, not the app’s page', () => {
    for (const path of ['/sw.js.map', '/nonexistent.png', '/assets/app-abc.js', '/a.b', '/reading/ch3-2.html', '/%E0%A4%A', '/%zz']) {
      expect(isAppPagePath(path), path).toBe(false);
    }
  });
});

describe('reloading a page whose route code is missing (an update moved on)', () => {
  const now = 1_000_000;
  it('reloads the first time, and again only after a pause', () => {
    expect(shouldReloadForMissingCode(null, now, true)).toBe(true);
    expect(shouldReloadForMissingCode(now - 1_000, now, true)).toBe(false);
    expect(shouldReloadForMissingCode(now - MISSING_CODE_RELOAD_PAUSE_MS, now, true)).toBe(true);
    // A time from a clock set back since counts as long ago.
    expect(shouldReloadForMissingCode(now + 60_000, now, true)).toBe(true);
  });

  it('does not reload to an offline error page: no network and no worker to load the page from', () => {
    expect(shouldReloadForMissingCode(null, now, false)).toBe(false);
  });
});
