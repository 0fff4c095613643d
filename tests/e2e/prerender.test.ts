import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { newContext, waitForApp, watchedPage } from './browser.ts';
import { serverAndBrowser } from './suite.ts';

const PASSWORD = 'demo password 1';

describe('public pages pre-rendered at build time', () => {
  const suite = serverAndBrowser({ DEMO_PASSWORD: PASSWORD });
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** Holds the app's code back until the returned function is called: the page stays as pre-rendered. */
  async function holdBackTheApp(page: Page): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/boot-[^/]*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  it('shows each public page with scripts off', async () => {
    // Dark, too: the page waits for the app to render it dark, unless no app can come.
    context = await suite.browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/`);
    await page.getByRole('link', { name: 'Begin Your Journey' }).waitFor();
    await page.goto(`${suite.server.url}/login`);
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(await page.getByLabel('Username').isVisible()).toBe(true);
    await page.goto(`${suite.server.url}/about`);
    await page.getByRole('heading', { name: 'The Team' }).waitFor();
    expect(await page.getByRole('heading', { name: 'The Team' }).isVisible()).toBe(true);
  });

  it('keeps what a reader typed before the app took the page over, and signs them in', async () => {
    context = await newContext(suite.browser);
    const { page, errors } = await watchedPage(context);
    // Hold the app's code back until the form has been filled in.
    const release = await holdBackTheApp(page);
    await page.goto(`${suite.server.url}/login`);
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill(PASSWORD);
    // Not yet the app's: Enter is kept (nothing leaves early, no password goes into a URL)...
    await page.getByLabel('Password').press('Enter');
    expect(page.url()).toBe(`${suite.server.url}/login`);
    // ...and the form is sent, with what was typed, once the app has it.
    release();
    await page.waitForURL('**/dashboard');
    await page.getByText('Welcome, demo').waitFor();
    expect(errors).toEqual([]);
  });

  it('offers installation when the browser offered it before the app had loaded', async () => {
    context = await newContext(suite.browser);
    const { page, errors } = await watchedPage(context);
    // Chromium's offer, made as soon as the page has been parsed: before the app's code arrives.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt: async () => document.documentElement.setAttribute('data-test-prompted', ''),
          userChoice: Promise.resolve({ outcome: 'dismissed' }),
        });
        window.dispatchEvent(offer);
      });
    });
    const release = await holdBackTheApp(page);
    await page.goto(`${suite.server.url}/`);
    await page.waitForFunction(() => document.readyState === 'complete');
    release();
    await waitForApp(page);
    await page.getByRole('button', { name: 'Install app' }).click();
    await page.waitForSelector('html[data-test-prompted]', { state: 'attached' });
    expect(errors).toEqual([]);
  });

  it('takes each page over with the styles the HTML brought, writing none of them twice', async () => {
    for (const path of ['/', '/login', '/about']) {
      // A first visit each time: on a later one the service worker serves the plain shell.
      await context?.close();
      context = await newContext(suite.browser);
      const { page, errors } = await watchedPage(context);
      await page.goto(`${suite.server.url}${path}`);
      await waitForApp(page);
      await expect.poll(() => page.evaluate(() => document.getElementById('root')!.dataset.prerendered ?? null)).not.toBeNull();
      // Let the app finish: every section hydrated, the nav bar's icons and the footer's links in.
      await page.waitForLoadState('networkidle');
      const rules = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLStyleElement>('style[data-make-styles-bucket]')].flatMap((element) =>
          [...(element.sheet?.cssRules ?? [])].map((rule) => `${element.media} ${rule.cssText}`),
        ),
      );
      expect(rules.length, path).toBeGreaterThan(100);
      expect(rules.filter((rule, i) => rules.indexOf(rule) !== i), path).toEqual([]);
      expect(errors, path).toEqual([]);
    }
  });

  it('follows a link taken while the page is still being taken over to the new page, without a mismatch, its heading focused', async () => {
    context = await newContext(suite.browser);
    const { page, errors } = await watchedPage(context);
    // The about page's own code is held back: the navigation is the app's, the page below it still the pre-rendered HTML.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/AboutPage-[^/]*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${suite.server.url}/about`);
    await page.waitForFunction(() => window.__earlyInput?.live['open-navigation'] === true);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Read' }).click();
    await page.waitForURL((url) => url.pathname === '/read');
    // The about page's heading, still on screen, is not where the focus goes.
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('H1');
    release();
    await page.getByRole('heading', { level: 1, name: 'The Alchemy of Happiness' }).waitFor();
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`)).toBe('H1 The Alchemy of Happiness');
    expect(await page.getByRole('heading', { name: 'About', level: 1 }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('renders afresh, without a mismatch, for a reader whose page is not the pre-rendered one', async () => {
    context = await newContext(suite.browser);
    await context.addInitScript(() => window.localStorage.setItem('themeMode', 'dark'));
    const { page, errors } = await watchedPage(context);
    await page.goto(`${suite.server.url}/login`);
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expect.poll(() => page.evaluate(() => document.getElementById('root')!.dataset.prerendered ?? null)).toBeNull();
    const background = await page.evaluate(() => getComputedStyle(document.querySelector('.fui-FluentProvider')!).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    await page.getByLabel('Username').fill('demo');
    expect(errors).toEqual([]);
  });
});
