/**
 * The public home of this project's source: VITE_SOURCE_URL, else package.json's repository (see
 * vite.config.ts); undefined where neither is set, and then no page links to it.
 */
export const SOURCE_REPOSITORY_URL: string | undefined = (import.meta.env.VITE_SOURCE_URL as string | undefined) || undefined;

/** The 1909 translation as scanned at sacred-texts.com. */
export const BOOK_SOURCE_URL = 'https://archive.sacred-texts.com/isl/tah/index.htm';

/**
 * The id of every page's main landmark: the target of "Skip to content" (src/components/Page.tsx;
 * the landing page's own). Here, not beside Page, so that the shell need not load Page to link to it.
 */
export const MAIN_ID = 'main';

export const TOOLTIP_SHOW_DELAY_MS = 100;
export const TOOLTIP_TOUCH_DELAY_MS = 700;
export const DRAWER_WIDTH_PX = 250;
export const DEFAULT_HERO_HEIGHT = '90vh';
/** Below this width the navigation becomes a drawer. */
export const SMALL_SCREEN_QUERY = '(max-width: 640px)';
