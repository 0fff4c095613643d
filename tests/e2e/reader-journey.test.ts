import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { axeViolations, SCREENSHOT_DIR, screenshot, waitForApp } from './browser.ts';
import { serverAndBrowser } from './suite.ts';

const PASSWORD = 'demo password 1';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

describe('a reader’s way in, the dashboard, failures and focus, in Chromium against the real server', () => {
  const suite = serverAndBrowser({ DEMO_PASSWORD: PASSWORD, SEARCH_RATE_LIMIT: '0' });
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function open(path: string, size = DESKTOP, options: { colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {}): Promise<Page> {
    context = await suite.browser.newContext({ viewport: size, colorScheme: options.colorScheme ?? 'light', bypassCSP: options.bypassCSP ?? false });
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(suite.server.url + path);
    await waitForApp(page);
    return page;
  }

  async function signIn(page: Page): Promise<void> {
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
  }

  async function openSignedIn(size = DESKTOP, options: { colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {}): Promise<Page> {
    const page = await open('/login', size, options);
    await signIn(page);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: "Explore Al-Ghazali's Wisdom", level: 1 }).waitFor();
    return page;
  }

  /** Where the first result's passage text stands in the viewport: its top edge, and the viewport's height. */
  const firstPassage = (page: Page) =>
    page.evaluate(() => {
      const text = document.querySelector('[data-testid="result-A"] p, [data-testid="result-same"] p')!;
      return { top: text.getBoundingClientRect().top, bottom: text.getBoundingClientRect().bottom, height: window.innerHeight };
    });

  const focused = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.trim()}`);


  it('on a phone, moves to the results after a search: the first passage’s text is on screen and its heading has the focus', async () => {
    const page = await openSignedIn(PHONE);
    const field = page.getByLabel('What would you like to know?');
    await field.fill('Why was man created?');
    await field.press('Enter');
    await page.getByText('Results for “Why was man created?”').waitFor();
    await expect.poll(() => focused(page)).toBe('H2 Search Results');
    const { top, bottom, height } = await firstPassage(page);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(height - 40);
    expect(bottom).toBeGreaterThan(top);
    // What the reader sees: the screen itself, not the whole page.
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'journey-phone-after-search.png') });
  });

  it('shows one heading, a box with a placeholder and example questions before a search, and no results heading until results', async () => {
    const page = await openSignedIn();
    // Every heading that stands before the search box: the page's one.
    const before = await page.evaluate(() => {
      const box = document.querySelector('input[name="query"]')!;
      return [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
        .filter((heading) => heading.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING)
        .map((heading) => heading.textContent);
    });
    expect(before).toEqual(["Explore Al-Ghazali's Wisdom"]);
    expect(await page.getByLabel('What would you like to know?').getAttribute('placeholder')).toMatch(/\S/);
    expect(await page.getByRole('heading', { name: 'Search Results' }).count()).toBe(0);
    const examples = page.getByRole('list', { name: 'Or try one of these:' }).getByRole('button');
    expect(await examples.first().textContent()).toBe('How can I stop worrying about what other people think of me?');
    expect(await examples.count()).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'What is true happiness?' }).click();
    await page.getByText('Results for “What is true happiness?”').waitFor();
    await page.getByRole('heading', { name: 'Search Results' }).waitFor();
    expect(await page.getByLabel('What would you like to know?').inputValue()).toBe('What is true happiness?');
    // The reactions are icons with their words, no emoji (an empty box where no font has them).
    const good = page.getByRole('button', { name: /^Good result \(/ }).first();
    expect(await good.textContent()).toBe('Good result');
    expect(await good.locator('svg').count()).toBe(1);
    const buttonsText = await page.getByRole('group').first().textContent();
    expect(buttonsText).not.toMatch(/[👍🤷👎]/u);
    await good.click();
    await page.getByText('Thank you for your feedback! You selected Good result').waitFor();
  });

  it('offers Retry when a search fails, and shows the answer once the server is back', async () => {
    const page = await openSignedIn();
    // The server cannot be reached: the request fails as it would with the server stopped.
    await page.route('**/api/search', (route) => route.abort('connectionrefused'));
    await page.getByLabel('What would you like to know?').fill('What is true happiness?');
    await page.getByRole('button', { name: 'Search' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Search failed' });
    await alert.waitFor();
    expect(await page.getByRole('heading', { name: 'Search Results' }).count()).toBe(0);
    await page.unroute('**/api/search');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Results for “What is true happiness?”').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Search failed' }).count()).toBe(0);
  });

  it('leads from a landing page question through sign-in straight to its answers, saying what the user types mean', async () => {
    const page = await open('/', PHONE);
    const question = 'How can I stop worrying about what other people think of me?';
    await page.getByRole('link', { name: question }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === `/dashboard?q=${encodeURIComponent(question).replace(/%20/g, '+')}`);
    await page.getByText('Enthusiast: you read for yourself. Ustaz: you teach others.').waitFor();
    await signIn(page);
    await page.getByText(`Results for “${question}”`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await expect.poll(() => focused(page)).toBe('H2 Search Results');
    const { top, height } = await firstPassage(page);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(height);
  });

  it('refuses a next address on another site, and goes to the dashboard', async () => {
    const page = await open('/login?next=//evil.example/dashboard');
    await signIn(page);
    await page.waitForURL((url) => url.origin === suite.server.url && url.pathname === '/dashboard');
  });

  it('gives keyboard readers a skip link first, the heading on each route change (not on first load), and the menu button back when the drawer closes', async () => {
    const page = await open('/about', PHONE);
    await page.getByRole('heading', { name: 'About', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('A Skip to content');
    expect(await page.getByRole('link', { name: 'Skip to content' }).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // The drawer: opened from its button, closed with Escape or its close button, the focus back on the button.
    const menu = page.getByRole('button', { name: 'Open navigation' });
    await menu.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => menu.evaluate((button) => button === document.activeElement)).toBe(true);
    // The page is not left hidden from screen readers (a drawer unmounted while open left aria-hidden on #root).
    expect(await page.locator('[aria-hidden="true"]:has(main)').count()).toBe(0);
    await menu.press('Enter');
    await page.getByRole('button', { name: 'Close navigation' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => menu.evaluate((button) => button === document.activeElement)).toBe(true);
    // A link in the drawer: the new page's heading takes the focus.
    await menu.click();
    await page.getByRole('dialog').getByRole('link', { name: 'Login' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => focused(page)).toBe('H1 Sign In');
    // And a link in the page: the brand link home, then the landing page's heading.
    await page.getByRole('link', { name: 'The Alchemy of Happiness' }).first().click();
    await expect.poll(() => focused(page)).toBe('H1 The Alchemy of Happiness');
  });

  it('leads everyone, signed out, to the book from the navigation: by keyboard, and from the phone’s drawer', async () => {
    const page = await open('/about');
    await page.getByRole('heading', { name: 'About', level: 1 }).waitFor();
    // Skip to content, the brand, then Read: the navigation's first link.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('A Read');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/read');
    // As after any link: the new page's heading has the focus, and the link says where the reader is.
    await expect.poll(() => focused(page)).toBe('H1 The Alchemy of Happiness');
    const read = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Read' });
    expect(await read.getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: /^Chapter IV/ }).click();
    await page.waitForURL('**/read/ch4');
    // On a chapter, Read is the section the reader is in.
    expect(await read.getAttribute('aria-current')).toBe('true');

    // On a phone, from the drawer, by keyboard: the menu button, the drawer's close button, Read.
    await context?.close();
    const phone = await open('/about', PHONE);
    await phone.getByRole('heading', { name: 'About', level: 1 }).waitFor();
    await phone.getByRole('button', { name: 'Open navigation' }).press('Enter');
    const drawer = phone.getByRole('dialog');
    await drawer.waitFor();
    expect(await drawer.getByRole('link').allTextContents()).toEqual(['Read', 'About', 'Saved', 'Login']);
    await expect.poll(() => phone.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close navigation');
    await phone.keyboard.press('Tab');
    expect(await focused(phone)).toBe('A Read');
    await phone.keyboard.press('Enter');
    await phone.waitForURL((url) => url.pathname === '/read');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => focused(phone)).toBe('H1 The Alchemy of Happiness');
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const size of [PHONE, DESKTOP]) {
      it(`shows Read in the navigation with no axe violations, ${colorScheme} at ${size.width}×${size.height}`, async () => {
        const tag = `navigation-read-${colorScheme}-${size.width}`;
        const page = await open('/read/ch4', size, { colorScheme, bypassCSP: true });
        await page.getByRole('heading', { level: 1, name: /^Chapter IV/ }).waitFor();
        if (size === PHONE) {
          await page.getByRole('button', { name: 'Open navigation' }).click();
          await page.getByRole('dialog').getByRole('link', { name: 'Read' }).waitFor();
        } else {
          await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Read' }).focus();
        }
        await page.evaluate(() => document.fonts.ready);
        expect(await axeViolations(page), `${tag}`).toEqual([]);
        await mkdir(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${tag}.png`) });
      });
    }
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const size of [PHONE, DESKTOP]) {
      it(`has no axe violations on the screens it changed, ${colorScheme} at ${size.width}×${size.height}`, async () => {
        const tag = `journey-${colorScheme}-${size.width}`;
        const page = await open('/', size, { colorScheme, bypassCSP: true });
        const check = async (name: string) => {
          await page.evaluate(() => document.fonts.ready);
          expect(await axeViolations(page), `${name} ${colorScheme} ${size.width}`).toEqual([]);
          await screenshot(page, `${tag}-${name}`);
        };
        await check('landing');
        await page.goto(`${suite.server.url}/login?next=%2Fdashboard`);
        await page.getByText('Enthusiast: you read for yourself.', { exact: false }).waitFor();
        await check('login');
        await signIn(page);
        await page.waitForURL('**/dashboard');
        await page.getByRole('button', { name: 'What is true happiness?' }).waitFor();
        await check('dashboard');
        await page.getByRole('button', { name: 'What is true happiness?' }).click();
        await page.getByText('Results for “What is true happiness?”').waitFor();
        await check('results');
        await page.route('**/api/search', (route) => route.abort('connectionrefused'));
        await page.getByLabel('What would you like to know?').fill('How should a husband treat his wife?');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByRole('button', { name: 'Retry' }).waitFor();
        await check('failed');
      });
    }
  }
});
