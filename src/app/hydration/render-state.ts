import type { ThemeMode } from '../../lib/theme/theme-store.ts';
import type { UserType } from '../../features/session/index.ts';

/** What a page's first render depends on besides its path. */
export interface RenderState {
  path: string;
  isAuthenticated: boolean;
  themeMode: ThemeMode;
  userType: UserType;
}

/** Reads the state a pre-rendered page was rendered with, as the build wrote it on #root. */
export function parseRenderState(raw: string | undefined): RenderState | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<RenderState>;
    return typeof value.path === 'string' &&
      typeof value.isAuthenticated === 'boolean' &&
      typeof value.themeMode === 'string' &&
      typeof value.userType === 'string'
      ? { path: value.path, isAuthenticated: value.isAuthenticated, themeMode: value.themeMode, userType: value.userType }
      : null;
  } catch {
    return null;
  }
}

/**
 * The client may take over (hydrate) pre-rendered HTML only when its own first render would be the
 * same markup: same path, same session, same theme, same reader type. Anything else (a signed-in
 * reader, a dark theme) renders afresh, so no reader ever keeps markup that is not theirs.
 */
export function canHydrate(rendered: RenderState | null, client: RenderState): boolean {
  return (
    rendered !== null &&
    rendered.path === client.path &&
    rendered.isAuthenticated === client.isAuthenticated &&
    rendered.themeMode === client.themeMode &&
    rendered.userType === client.userType
  );
}
