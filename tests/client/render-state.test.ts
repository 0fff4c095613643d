import { describe, expect, it } from 'vitest';
import { canHydrate, parseRenderState, type RenderState } from '../../src/app/hydration/render-state.ts';

const firstVisit: RenderState = { path: '/login', isAuthenticated: false, themeMode: 'light', userType: 'Enthusiast' };

describe('taking over a pre-rendered page', () => {
  it('reads back the state the build wrote on #root, and nothing else', () => {
    expect(parseRenderState(JSON.stringify(firstVisit))).toEqual(firstVisit);
    expect(parseRenderState(undefined)).toBeNull();
    expect(parseRenderState('')).toBeNull();
    expect(parseRenderState('{not json')).toBeNull();
    expect(parseRenderState(JSON.stringify({ path: '/login' }))).toBeNull();
  });

  it('hydrates only when this reader’s first render is the pre-rendered one', () => {
    expect(canHydrate(firstVisit, { ...firstVisit })).toBe(true);
    expect(canHydrate(null, firstVisit)).toBe(false);
    expect(canHydrate(firstVisit, { ...firstVisit, path: '/about' })).toBe(false);
    expect(canHydrate(firstVisit, { ...firstVisit, isAuthenticated: true })).toBe(false);
    expect(canHydrate(firstVisit, { ...firstVisit, themeMode: 'dark' })).toBe(false);
    expect(canHydrate(firstVisit, { ...firstVisit, userType: 'Ustaz' })).toBe(false);
  });
});
