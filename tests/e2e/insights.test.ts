import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { newContext, screenshot, submitSignIn, waitForApp, axeViolations } from './browser.ts';
import { serverAndBrowser } from './suite.ts';

const PASSWORD = 'demo password 1';
/** The technical ids of the pool's arms, or any part of one: never on screen until a reader asks. */
const TECHNICAL = /tfidf|ppmi|minisearch|bge-small|UAE-Large|LSA |SIF |BM25 /;


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
    await page.getByTestId(/^result-(B|same)$/).waitFor();
    if (await page.getByText('Both models chose the same passage.').count()) return false;
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
      // Three questions each model answers with a passage of its own, whichever pair is drawn; the rest in reserve.
      'Why does God allow suffering?',
      'What is the soul like?',
      'What is remembrance of God?',
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
    // The verdict first, in one sentence, on the rounds so far.
    expect(await page.getByTestId('verdict').innerText()).toMatch(/3 rounds/);
    // The figures are behind a disclosure, closed until asked for.
    expect(await page.getByRole('table').count()).toBe(0);
    await page.getByText('The figures in detail').click();
    const table = page.getByRole('table', { name: 'Wins by method and kind of reader' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    const all = rows.filter((r) => r.includes('All readers')).map((r) => r.split('\t'));
    // The models drawn for the three rounds: two or three of the pool, by their plain names.
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.length).toBeLessThanOrEqual(3);
    for (const cells of all) expect(['Shared themes', 'Words in context', 'Matches your words']).toContain(cells[0]);
    // Every compared round gives one model a win, a tie or a loss, and the other the mirror of it:
    // three rounds, one of them a tie, are six results, two wins, two ties and two losses in all.
    const totals = all.map((cells) => cells.slice(2, 5).map(Number)).reduce((sum, [w, t, l]) => [sum[0]! + w!, sum[1]! + t!, sum[2]! + l!], [0, 0, 0]);
    expect(totals).toEqual([2, 2, 2]);
    // The leaderboard: every compared model with its strength and interval, the pairs that met,
    // and how sure the order of the top two is. Three rounds separate nobody: the top two share the first place.
    const board = page.getByRole('table', { name: 'Strength of each method, strongest first' });
    const boardRows = (await board.getByRole('row').allInnerTexts()).slice(1).map((r) => r.split('\t'));
    expect(boardRows[0]![0]).toBe('=1');
    expect(boardRows[1]![0]).toBe('=1');
    expect(boardRows.map((cells) => cells[1]).sort()).toEqual(all.map((cells) => cells[0]).sort());
    for (const cells of boardRows) expect(cells[3]).toMatch(/^\d+\.\d\d – \d+\.\d\d$/);
    const pairs = (await page.getByRole('table', { name: 'Each method against each other' }).getByRole('row').allInnerTexts()).slice(1);
    expect(pairs.length % 2).toBe(0);
    expect(pairs.reduce((n, r) => n + r.split('\t').slice(2, 5).map(Number).reduce((a, b) => a + b, 0), 0)).toBe(6);
    await page.getByText(/told apart|would tell them apart|level so far/).first().waitFor();
    const reactions = await page.getByRole('table', { name: 'Reactions to each method’s passages' }).getByRole('row').allInnerTexts();
    const total = reactions.slice(1).reduce((n, r) => n + Number(r.split('\t')[4]), 0);
    expect(total).toBe(6);
    await screenshot(page, 'insights-light-1280');
  });

  /** The reactions Insights counts, over both models. */
  async function reactionsCounted(page: Page): Promise<number> {
    await page.getByRole('link', { name: 'See which model readers prefer' }).click();
    await page.waitForURL('**/insights');
    await page.getByTestId('verdict').waitFor();
    if (!(await page.getByText('The figures in detail').count())) return 0;
    await page.getByText('The figures in detail').click();
    const table = page.getByRole('table', { name: 'Reactions to each method’s passages' });
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
    // A question no other test here votes on: a reader's vote again on a question, model and passage replaces the first.
    for (const question of ['When is it better for a man to stay single?', 'the heart is like a mirror', 'patience in marriage', 'the love of God', 'what happens after death']) {
      if ((voted = await voteOn(page, question, 'Good result', 'Not relevant'))) break;
    }
    expect(voted).toBe(true);
    await context.unroute('**/api/save');
    expect(await reactionsCounted(page)).toBe(before + 2);
  });

  it('names the page it opened, gives its heading the focus, and leaves out a model no instance served', async () => {
    const page = await signedIn({ width: 320 });
    const token = await page.evaluate(async () => {
      const form = new URLSearchParams({ username: 'demo', password: 'demo password 1', grant_type: 'password' });
      const reply = await fetch('/api/login', { method: 'POST', body: form });
      return ((await reply.json()) as { access_token: string }).access_token;
    });
    // A reader saves, through the API, a vote for a name of their own: a link, long enough to widen any page.
    const madeUp = `Visit https://evil.example/${'x'.repeat(150)} to claim your prize`;
    const saved = await page.evaluate(
      async ({ token, madeUp }) =>
        (
          await fetch('/api/save', {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              items: [
                { user_type: 'Enthusiast', username: 'demo', query: 'q', retrieved_text: 'x', model_type: madeUp, result_label: 'A', reaction: '👍', confidence_score: 1 },
              ],
            }),
          })
        ).status,
      { token, madeUp },
    );
    expect(saved).toBe(200);
    // A question of one unbroken word, as long as a question may be.
    await page.getByLabel('What would you like to know?').fill(`patience ${'x'.repeat(900)}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Results for', { exact: false }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.getByRole('link', { name: 'See which model readers prefer' }).click();
    await page.waitForURL('**/insights');
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    expect(await page.title()).toBe('Insights · The Alchemy of Happiness');
    // The new page's heading has the focus (the link that was followed is gone with its page).
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`)).toBe('H1 Insights');
    // Sent with no receipt of the search that showed it (as an older app would): counted apart, as unconfirmed.
    await page.getByText('1 whose search this site could not confirm', { exact: false }).waitFor();
    await page.getByText('at most 30 rounds a day', { exact: false }).waitFor();
    expect(await page.getByText('evil.example', { exact: false }).count()).toBe(0);
    // Tables scroll in their own frames, and the charts' labels wrap: the page itself is no wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await screenshot(page, 'insights-light-320');
  });

  it('keeps the question, the results and the round’s votes across a visit to Insights and Back, and votes on the rest of the round', async () => {
    const page = await signedIn();
    for (const question of ['what does Ghazali actually mean when he talks about the heart?', 'Why was man created?', 'music and dancing']) {
      await page.getByLabel('What would you like to know?').fill(question);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText(`Results for “${question}”`).waitFor();
      if (!(await page.getByText('Both models chose the same passage.').count())) break;
    }
    const question = await page.getByLabel('What would you like to know?').inputValue();
    await page.getByRole('button', { name: 'Good result (result A)' }).click();
    await page.getByText('Thank you for your feedback!').first().waitFor();
    const passageA = await page.getByTestId('result-A').innerText();
    await page.getByLabel('What would you like to know?').fill(`${question} and more`);
    await page.getByRole('link', { name: 'See which model readers prefer' }).click();
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    await page.goBack();
    await page.getByText(`Results for “${question}”`).waitFor();
    expect(await page.getByLabel('What would you like to know?').inputValue()).toBe(`${question} and more`);
    expect(await page.getByTestId('result-A').innerText()).toBe(passageA);
    await page.getByTestId('result-A').getByText('Thank you for your feedback!').waitFor();
    // A's vote is not given twice; B is still to be voted on, and is.
    expect(await page.getByRole('button', { name: 'Good result (result A)' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Not relevant (result B)' }).click();
    await page.getByTestId('result-B').getByText('Thank you for your feedback!').waitFor();
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
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`on a phone (390 × 844, ${colorScheme}), is reached from the menu, shows no technical id until asked, and is no wider than the screen`, async () => {
      // axe is injected as an inline script, which our CSP rightly blocks: bypass it for the audit only.
      context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme, bypassCSP: true });
      const page = await context.newPage();
      page.on('pageerror', (error) => {
        throw error;
      });
      await submitSignIn(page, suite.server.url, 'demo', PASSWORD);
      await page.waitForURL('**/dashboard');
      for (const question of ['Why was man created?', 'How does Ghazali define love?', 'the intellect is like a chief minister', 'music and dancing']) {
        if (await voteOn(page, question, 'Good result', 'Somewhat relevant')) break;
      }
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('dialog').getByRole('link', { name: 'Insights' }).click();
      await page.waitForURL('**/insights');
      await page.getByTestId('verdict').waitFor();
      // The drawer closes as the link is followed; until it has gone, the page behind it is hidden from assistive technology.
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await expect.poll(() => page.evaluate(() => document.getElementById('root')?.getAttribute('aria-hidden') ?? null), { timeout: 5000 }).toBeNull();
      await page.waitForLoadState('networkidle');
      const shown = () => page.evaluate(() => document.body.innerText);
      expect(await shown()).not.toMatch(TECHNICAL);
      expect(await shown()).not.toMatch(/Wilson|Bradley|bootstrap/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `insights-${colorScheme}-390`);
      // Keyboard only: Tab to the first arm's technical name and open it with Enter.
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(() => document.activeElement?.textContent?.startsWith('Technical name'))) break;
      }
      await page.keyboard.press('Enter');
      expect(await shown()).toMatch(TECHNICAL);
      // The figures in detail, opened: still nothing wider than the phone; tables scroll in their frames.
      await page.getByText('The figures in detail').click();
      await page.getByRole('table', { name: 'Strength of each method, strongest first' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `insights-open-${colorScheme}-390`);
    });
  }

  it('says in a styled message, with Retry, when the figures cannot be reached', async () => {
    const page = await signedIn();
    await context.route('**/api/stats', (route) => route.abort('internetdisconnected'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insights' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Insights could not be loaded.' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('The server could not be reached.');
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    await screenshot(page, 'insights-failed-light-1280');
    await context.unroute('**/api/stats');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('verdict').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Insights could not be loaded.' }).count()).toBe(0);
  });
});
