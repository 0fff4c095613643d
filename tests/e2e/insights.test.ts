import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { newContext, screenshot, submitSignIn, waitForApp } from './browser.ts';
import { serverAndBrowser } from './suite.ts';

const PASSWORD = 'demo password 1';

describe('insights and reading in context, in Chromium', () => {
  const suite = serverAndBrowser({ DEMO_PASSWORD: PASSWORD, SEARCH_RATE_LIMIT: '0' });
  let context: BrowserContext;
  afterEach(async () => {
    await context?.close();
  });

  async function signedIn(options: Parameters<typeof newContext>[1] = {}): Promise<Page> {
    context = await newContext(suite.browser, options);
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await submitSignIn(page, suite.server.url, 'demo', PASSWORD);
    await page.waitForURL('**/dashboard');
    return page;
  }

  /** Votes on A and B when they differ; returns false (and does not vote) when both are the same passage. */
  async function voteOn(page: Page, query: string, a: string, b: string): Promise<boolean> {
    await page.getByLabel('What would you like to know?').fill(query);
    const searched = page.waitForResponse((response) => response.url().endsWith('/api/search'));
    await page.getByRole('button', { name: 'Search' }).click();
    await searched;
    // The last round's cards, thanks and all, stay on screen until the new results replace them.
    await page.getByText('Thank you for your feedback!').first().waitFor({ state: 'detached' });
    await page.getByText('Result B').waitFor();
    if (await page.getByText('Both models found the same passage this time.').count()) return false;
    await page.getByRole('button', { name: `${a} (result A)` }).click();
    await page.getByText('Thank you for your feedback!').first().waitFor();
    await page.getByRole('button', { name: `${b} (result B)` }).click();
    await page.getByText('Thank you for your feedback!').nth(1).waitFor();
    return true;
  }

  it('shows after a few votes how each model fared, with the numbers in a table', async () => {
    const page = await signedIn();
    // Three compared rounds: A wins one, loses one, ties one (questions whose two passages coincide are skipped).
    const questions = [
      'bright pebbles that become a worthless burden on the boat',
      'craving worldly things is like drinking salt water',
      'family responsibilities distract a husband from prayer',
      'the intellect is like a chief minister',
      'regret for not picking up precious gems',
      'music and dancing',
      'the world as a seductive woman',
      'counting the days of one’s life',
    ];
    const plan: Array<[string, string]> = [
      ['Good result', 'Not relevant'],
      ['Not relevant', 'Somewhat relevant'],
      ['Somewhat relevant', 'Somewhat relevant'],
    ];
    let compared = 0;
    for (const question of questions) {
      if (compared === plan.length) break;
      const [a, b] = plan[compared]!;
      if (await voteOn(page, question, a, b)) compared += 1;
    }
    expect(compared).toBe(3);
    await page.getByRole('link', { name: 'See which model readers prefer' }).click();
    await page.waitForURL('**/insights');
    const table = page.getByRole('table', { name: 'Win rate per model and reader type' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    const all = rows.filter((r) => r.includes('All readers')).map((r) => r.split('\t'));
    expect(all).toHaveLength(2);
    // Every compared round gives one model a win, a tie or a loss, and the other the mirror of it.
    const [first, second] = all.map((cells) => cells.slice(2, 5).map(Number)) as [number[], number[]];
    expect(first[0]).toBe(second[2]);
    expect(first[1]).toBe(second[1]);
    expect(first[2]).toBe(second[0]);
    // Three rounds: one tie, and two decisive rounds shared between the models.
    expect(first[0]! + first[1]! + first[2]!).toBe(3);
    expect(first[1]).toBe(1);
    await page.getByText('3 searches had both results rated and can be compared', { exact: false }).waitFor();
    const reactions = await page.getByRole('table', { name: 'Reactions per model' }).getByRole('row').allInnerTexts();
    const total = reactions.slice(1).reduce((n, r) => n + Number(r.split('\t')[4]), 0);
    expect(total).toBe(6);
    await screenshot(page, 'insights-light-1280');
  });

  /** The reactions Insights counts, over both models. */
  async function reactionsCounted(page: Page): Promise<number> {
    await page.getByRole('link', { name: 'See which model readers prefer' }).click();
    await page.waitForURL('**/insights');
    const table = page.getByRole('table', { name: 'Reactions per model' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    return rows.slice(1).reduce((n, r) => n + Number(r.split('\t')[4]), 0);
  }

  it('counts the votes still waiting in the outbox when the reader opens Insights', async () => {
    const page = await signedIn();
    const before = await reactionsCounted(page);
    await page.goto(`${suite.server.url}/dashboard`);
    // The server cannot take votes for a while: the next two wait in the outbox.
    await context.route('**/api/save', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"Service unavailable"}' }));
    let voted = false;
    for (const question of ['the heart is like a mirror', 'patience in marriage', 'the love of God', 'what happens after death']) {
      if ((voted = await voteOn(page, question, 'Good result', 'Not relevant'))) break;
    }
    expect(voted).toBe(true);
    await context.unroute('**/api/save');
    expect(await reactionsCounted(page)).toBe(before + 2);
  });

  it('opens a result in its chapter, highlighted among its neighbours, at a link to share', async () => {
    const page = await signedIn();
    await page.getByLabel('What would you like to know?').fill('blind men and the elephant');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Result A').waitFor();
    const [reading] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Read in context (result A)' }).click()]);
    await reading.waitForURL(/\/read\/[a-z0-9-]+$/);
    const current = reading.locator('[aria-current="true"]');
    await current.waitFor();
    const id = reading.url().split('/read/')[1]!;
    expect(await current.getAttribute('data-passage')).toBe(id);
    expect(await reading.locator('[data-passage]').count()).toBeGreaterThan(1);
    // The shared link works for anyone, signed in or not.
    const stranger = await suite.browser.newPage();
    await stranger.goto(`${suite.server.url}/read/${id}`);
    await stranger.locator('[aria-current="true"]').waitFor();
    await screenshot(stranger, 'read-in-context-light-1280');
    await stranger.close();
  });

  it('reaches every passage of the book, and says when one does not exist', async () => {
    context = await newContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/read/editorial-note-1`);
    await page.getByRole('heading', { name: 'Editorial Note' }).waitFor();
    await page.goto(`${suite.server.url}/read/ch8-26`);
    await page.getByRole('heading', { name: 'Chapter VIII: The Love of God' }).waitFor();
    await page.getByRole('button', { name: 'Show earlier passages' }).click();
    await expect.poll(() => page.locator('[data-passage]').count()).toBeGreaterThan(4);
    await page.goto(`${suite.server.url}/read/ch99-1`);
    await page.getByText('No passage with id ch99-1').waitFor();
  });

  it('has real privacy and terms pages behind the footer links', async () => {
    context = await newContext(suite.browser);
    const page = await context.newPage();
    await page.goto(suite.server.url);
    await waitForApp(page);
    await page.getByRole('link', { name: 'Privacy' }).click();
    await page.getByRole('heading', { name: 'What is stored' }).waitFor();
    await page.getByText('npm run users -- forget YOUR-NAME').waitFor();
    await page.getByRole('link', { name: 'Terms' }).click();
    await page.getByRole('heading', { name: 'Terms of use' }).waitFor();
  });
});
