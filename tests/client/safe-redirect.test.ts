import { describe, expect, it } from 'vitest';
import { DEFAULT_REDIRECT, safeRedirect } from '../../src/features/session/safe-redirect.ts';

const ORIGIN = 'https://alchemy.example';

describe('the redirect after a token refresh', () => {
  it('goes to a path on this site, with its query and fragment', () => {
    expect(safeRedirect('/about', ORIGIN)).toBe('/about');
    expect(safeRedirect('/read/ch1-2?from=search#p3', ORIGIN)).toBe('/read/ch1-2?from=search#p3');
  });

  it('goes to the dashboard without a target, or with one that is not a path', () => {
    for (const target of [null, '', 'about', 'https://evil.example/', 'javascript:alert(1)', ' /about']) {
      expect(safeRedirect(target, ORIGIN), String(target)).toBe(DEFAULT_REDIRECT);
    }
  });

  it('never goes to another site, however the browser would be led to read the target as one', () => {
    const otherSites = ['//evil.example/x', '/\\evil.example/x', '/\t/evil.example/x', '/\n/evil.example/x', '/\r\n/evil.example', '\\/evil.example', '/\\\\evil.example', '//\tevil.example', '/.//evil.example/x', '/a/..//evil.example', '/%2e//evil.example'];
    for (const target of otherSites) expect(safeRedirect(target, ORIGIN), JSON.stringify(target)).toBe(DEFAULT_REDIRECT);
  });

  it('sends the path as the browser reads it, the one that was checked', () => {
    expect(safeRedirect('/ab\tout', ORIGIN)).toBe('/about');
    expect(safeRedirect('/a/../dashboard', ORIGIN)).toBe('/dashboard');
  });
});
