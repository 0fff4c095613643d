import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { newContext, submitSignIn, waitForApp, watchedPage } from './browser.ts';
import { serverAndBrowser } from './suite.ts';

const PASSWORD = 'demo password 1';

/**
 * A phone-like first visit: every script arrives 2 s late, and the CPU runs 4× slower. Taps are
 * made as soon as their control shows, long before the app has taken the page over.
 */
describe('taps made before the app has loaded', () => {
  const suite = serverAndBrowser({ DEMO_PASSWORD: PASSWORD });
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /**
   * A page on a slow phone whose scripts are held back until the test has made its taps:
   * `letTheAppIn()` releases them. (Held for a fixed 2 s, they sometimes arrived before the
   * taps on a busy machine, and the test no longer tested a tap made before the app.)
   */
  async function slowPage(ctx: BrowserContext): Promise<{ page: Page; errors: string[]; letTheAppIn: () => void }> {
    const { page, errors } = await watchedPage(ctx);
    let letTheAppIn = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      letTheAppIn = resolve;
      // Never held for good, should a test not release them.
      setTimeout(resolve, 120_000).unref();
    });
    await page.route(/\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    return { page, errors, letTheAppIn };
  }

  it('follows "Begin Your Journey" to /login', async () => {
    context = await newContext(suite.browser);
    const { page, errors, letTheAppIn } = await slowPage(context);
    await page.goto(`${suite.server.url}/`, { waitUntil: 'commit' });
    await page.getByRole('link', { name: 'Begin Your Journey' }).click();
    letTheAppIn(); // only now, after the tap
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('takes a signed-in reader from "Begin Your Journey" to the dashboard', async () => {
    context = await newContext(suite.browser);
    const setup = await context.newPage();
    await submitSignIn(setup, suite.server.url, 'demo', PASSWORD);
    await setup.waitForURL('**/dashboard');
    await setup.close();
    const { page, errors, letTheAppIn } = await slowPage(context);
    await page.goto(`${suite.server.url}/`, { waitUntil: 'commit' });
    await page.getByRole('link', { name: 'Begin Your Journey' }).click();
    letTheAppIn();
    await page.waitForURL('**/dashboard', { timeout: 60_000 });
    await page.getByText('Welcome, demo').waitFor();
    expect(errors).toEqual([]);
  });

  it('opens the 250 px menu drawer on a small screen, once', async () => {
    context = await newContext(suite.browser, { width: 375 });
    const { page, errors, letTheAppIn } = await slowPage(context);
    await page.goto(`${suite.server.url}/about`, { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    letTheAppIn();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor({ timeout: 60_000 });
    expect((await drawer.boundingBox())!.width).toBeCloseTo(250, 0);
    expect(await page.getByRole('dialog').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('switches the theme, once, and remembers it', async () => {
    context = await newContext(suite.browser);
    const { page, errors, letTheAppIn } = await slowPage(context);
    await page.goto(`${suite.server.url}/`, { waitUntil: 'commit' });
    await page.getByTestId('theme-toggle').click();
    letTheAppIn();
    await page.waitForSelector('html[data-theme="dark"]', { state: 'attached', timeout: 60_000 });
    // Exactly once: it stays dark after the app has settled.
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    await page.waitForSelector('html[data-theme="dark"]', { state: 'attached', timeout: 60_000 });
    expect(errors).toEqual([]);
  });

  it('follows a navigation link', async () => {
    context = await newContext(suite.browser);
    const { page, errors, letTheAppIn } = await slowPage(context);
    await page.goto(`${suite.server.url}/`, { waitUntil: 'commit' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
    letTheAppIn();
    await page.waitForURL('**/about');
    await page.getByRole('heading', { name: 'The Team' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('signs in once with the form sent by Enter before the app arrived', async () => {
    context = await newContext(suite.browser);
    const { page, errors, letTheAppIn } = await slowPage(context);
    let logins = 0;
    page.on('request', (request) => request.url().endsWith('/api/login') && logins++);
    await page.goto(`${suite.server.url}/login`, { waitUntil: 'commit' });
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.getByLabel('Password').press('Enter');
    letTheAppIn();
    await page.waitForURL('**/dashboard', { timeout: 60_000 });
    await page.getByText('Welcome, demo').waitFor();
    expect(logins).toBe(1);
    expect(errors).toEqual([]);
  });

  it('says plainly, with scripts off, that signing in needs JavaScript, and never shows an API reply', async () => {
    context = await suite.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // Read from the page itself: Playwright's text locators skip <noscript>.
    const notice = () =>
      page.evaluate(() => {
        const p = document.querySelector('form noscript p');
        return p && p.getBoundingClientRect().height > 0 ? p.textContent : null;
      });
    await page.goto(`${suite.server.url}/login`);
    expect(await notice()).toMatch(/^Signing in needs JavaScript/);
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.waitForLoadState('load');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(page.url()).not.toContain(PASSWORD);
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(await notice()).toMatch(/^Signing in needs JavaScript/);
  });

  it('leaves the app answering taps itself once it has loaded', async () => {
    context = await newContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/`);
    await waitForApp(page);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('theme-toggle').click();
    await page.waitForSelector('html[data-theme="dark"]', { state: 'attached' });
    await page.getByTestId('theme-toggle').click();
    await page.waitForSelector('html[data-theme="light"]', { state: 'attached' });
  });
});
