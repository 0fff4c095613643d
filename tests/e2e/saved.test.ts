import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { newContext, screenshot, submitSignIn, waitForApp, axeViolations } from './browser.ts';
import { QUESTION_OF_TWO_CARDS } from './questions.ts';
import { serverAndBrowser } from './suite.ts';

const PASSWORD = 'demo password 1';

describe('saved passages in Chromium, across two browsers signed in as one reader', () => {
  const suite = serverAndBrowser({ DEMO_PASSWORD: PASSWORD, SEARCH_RATE_LIMIT: '0' });
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  async function signedIn(options: Parameters<typeof newContext>[1] = {}): Promise<Page> {
    const context = await newContext(suite.browser, options);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(suite.server.url + '/');
    await waitForApp(page);
    await submitSignIn(page, suite.server.url, 'demo', PASSWORD);
    await page.waitForURL('**/dashboard');
    return page;
  }


  it('a save made offline appears once in another browser after reconnecting; axe finds nothing on /saved', async () => {
    const first = await signedIn();
    await first.getByLabel('What would you like to know?').fill(QUESTION_OF_TWO_CARDS);
    await first.getByRole('button', { name: 'Search' }).click();
    await first.getByText('Result B').waitFor();

    await first.context().setOffline(true);
    await first.getByRole('button', { name: 'Save (result A)' }).click();
    await first.getByLabel('Note (optional)').fill('Kept while offline');
    await first.getByRole('button', { name: 'Save passage' }).click();
    await first.getByText('Saved.').waitFor();
    await first.context().setOffline(false);
    await first.evaluate(() => window.dispatchEvent(new Event('online')));

    const second = await signedIn({ bypassCSP: true });
    let cards = 0;
    for (let i = 0; i < 30 && cards === 0; i++) {
      await second.goto(suite.server.url + '/saved');
      await second.getByRole('heading', { level: 1, name: 'Saved passages' }).waitFor();
      await second.waitForLoadState('networkidle');
      cards = await second.getByTestId('saved-list').locator('li').count();
      if (cards === 0) await second.waitForTimeout(1000);
    }
    expect(cards).toBe(1);
    await expect(second.getByText('Your note: Kept while offline').isVisible()).resolves.toBe(true);
    const link = await second.getByTestId('saved-list').getByRole('link').getAttribute('href');
    expect(link).toMatch(/^\/read\/[a-z0-9-]+#p\d+$/);

    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [390, 1280]) {
        await second.setViewportSize({ width, height: 900 });
        await second.emulateMedia({ colorScheme });
        await second.reload();
        await second.getByTestId('saved-list').waitFor();
        await second.waitForLoadState('networkidle');
        expect(await axeViolations(second), `saved ${colorScheme} ${width}`).toEqual([]);
        await screenshot(second, `saved-${colorScheme}-${width}`);
      }
    }
  });
});
