import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Where screenshots go: test-results/screenshots (CI keeps test output there). */
export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

export async function newContext(
  browser: Browser,
  options: { width?: number; colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    bypassCSP: options.bypassCSP ?? false,
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: 'allow',
  });
}

/** Fills and sends the sign-in form at `baseUrl`/login (the caller waits for what follows). */
export async function submitSignIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Waits until the app has started and listens for input: it sets the page's theme then. Before
 * that, a pre-rendered page is showing but not yet taken over, and a click on it can be lost.
 */
export async function waitForApp(page: Page): Promise<void> {
  await page.waitForSelector('html[data-theme]', { state: 'attached' });
}

/** A new page whose errors, and console errors (React reports a hydration mismatch there), are collected for the test to check. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { page, errors };
}

/**
 * Opens `url` in `page` and waits until the service worker controls it (a first visit installs
 * the worker, and only a reload puts the page under it), the app started.
 */
export async function openUnderWorker(page: Page, url: string): Promise<Page> {
  await page.goto(url);
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await waitForApp(page);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) throw new Error(`no service worker controls ${url}`);
  return page;
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe's violations on the page as it stands, a line each: the rule and the elements it names.
 *
 * One known false alarm is left out, and only it: Fluent UI's focus manager (tabster) puts
 * invisible "dummy" elements at the edges of drawers, menus and dialogs, focusable and
 * aria-hidden on purpose: they hand the focus on the moment they receive it, and a screen reader
 * must not announce them. axe's `aria-hidden-focus` names them while they exist (around a drawer
 * that is closing, say), as tabster's maintainers and Microsoft's own Accessibility Insights
 * record (microsoft/tabster#288). Any other element, under any rule, still counts.
 */
export async function axeViolations(p: Page): Promise<string[]> {
  await p.addScriptTag({ path: AXE });
  return p.evaluate(async () => {
    type Violation = { id: string; nodes: Array<{ target: string[]; html: string }> };
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Violation[] }> } }).axe;
    const focusHandOff = (v: Violation, n: Violation['nodes'][number]) => v.id === 'aria-hidden-focus' && /^<[a-z]+ [^>]*data-tabster-dummy/.test(n.html);
    return (await axe.run(document)).violations
      .map((v) => ({ id: v.id, nodes: v.nodes.filter((n) => !focusHandOff(v, n)) }))
      .filter((v) => v.nodes.length > 0)
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
