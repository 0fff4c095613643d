import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { axeViolations, newContext, screenshot, submitSignIn, waitForApp } from './browser.ts';
import { QUESTION_OF_ONE_CARD, QUESTION_OF_TWO_CARDS } from './questions.ts';
import { serverAndBrowser } from './suite.ts';

const PASSWORD = 'demo password 1';

describe('the PWA in Chromium, against the real server', () => {
  const suite = serverAndBrowser({ DEMO_PASSWORD: PASSWORD, SEARCH_RATE_LIMIT: '0' });
  let context: BrowserContext;
  let page: Page;
  afterEach(async () => {
    await context?.close();
  });

  async function open(path: string, options: Parameters<typeof newContext>[1] = {}): Promise<Page> {
    context = await newContext(suite.browser, options);
    page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(suite.server.url + path);
    await waitForApp(page);
    return page;
  }

  const signIn = (p: Page, username = 'demo', password = PASSWORD) => submitSignIn(p, suite.server.url, username, password);

  /** A page signed in as the demo reader, at the dashboard. */
  async function openSignedIn(): Promise<Page> {
    const p = await open('/');
    await signIn(p);
    await p.waitForURL('**/dashboard');
    return p;
  }

  async function search(p: Page, query: string): Promise<void> {
    await p.getByLabel('What would you like to know?').fill(query);
    await p.getByRole('button', { name: 'Search' }).click();
  }


  it('takes a reader from the landing page to a vote, and the vote arrives', async () => {
    const p = await open('/');
    await expect(p.getByText('Explore the timeless wisdom of Al-Ghazali through semantic search', { exact: false }).isVisible()).resolves.toBe(true);
    await p.getByRole('link', { name: 'Begin Your Journey' }).click();
    await p.waitForURL('**/login');
    await p.getByLabel('Username').fill('demo');
    await p.getByLabel('Password').fill(PASSWORD);
    expect(await p.getByLabel('User Type').inputValue()).toBe('Enthusiast');
    await p.getByLabel('User Type').selectOption('Ustaz');
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.waitForURL('**/dashboard');
    await p.getByText('Welcome, demo').waitFor();
    await p.getByText("Explore Al-Ghazali's Wisdom").waitFor();
    await p.getByText('Search through "The Alchemy of Happiness"').waitFor();

    // A question each model of the weight-free pool answers with a passage of its own, so that
    // any pair drawn shows two (as do the others below that vote on A and B).
    await search(p, 'What are the qualities of animals?');
    await p.getByText('Result A').waitFor();
    await p.getByText('Result B').waitFor();
    await expect(p.getByRole('heading', { name: 'Search Results' }).isVisible()).resolves.toBe(true);
    // Why this passage: on both cards alike, the best-matching sentence is marked as emphasis.
    for (const label of ['A', 'B']) {
      const marked = p.getByTestId(`result-${label}`).locator('em[data-testid="best-sentence"]');
      expect(await marked.count()).toBe(1);
      expect((await marked.textContent())!.length).toBeGreaterThan(10);
    }
    await p.getByRole('button', { name: 'Good result (result A)' }).click();
    await p.getByText('Thank you for your feedback! You selected Good result').waitFor();
    // Its buttons are gone; B's remain.
    expect(await p.getByRole('button', { name: 'Good result (result A)' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Not relevant (result B)' }).click();
    await p.getByText('Thank you for your feedback! You selected Not relevant').waitFor();

    const token = await p.evaluate(() => (JSON.parse(localStorage.getItem('authTokens') ?? '{}') as { access: string }).access);
    const votes = (await (await fetch(`${suite.server.url}/api/feedback`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<
      Record<string, unknown>
    >;
    expect(votes.slice(0, 2).map((v) => v.result_label).sort()).toEqual(['A', 'B']);
    expect(votes[0]).toMatchObject({ user_type: 'Ustaz', username: 'demo', query: 'What are the qualities of animals?' });
    expect(votes[0]!.round_id).toBe(votes[1]!.round_id);
    expect(votes[0]!.client_id).not.toBe(votes[1]!.client_id);
    expect(await p.evaluate(() => localStorage.getItem('userType'))).toBe('Ustaz');
  });

  it('shows the server’s reason for a wrong password', async () => {
    const p = await open('/login');
    await signIn(p, 'demo', 'not the password');
    await p.getByText('Incorrect username or password').waitFor();
    expect(p.url()).toMatch(/\/login$/);
  });

  it('asks for a username and password before sending anything', async () => {
    const p = await open('/login');
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.getByText('Username is required').waitFor();
    await p.getByText('Password is required').waitFor();
  });

  it('sends a signed-out reader from /dashboard to /login', async () => {
    const p = await open('/dashboard');
    await p.waitForURL('**/login?next=%2Fdashboard');
  });

  it('shows the landing page for an unknown path', async () => {
    const p = await open('/no/such/page');
    await p.getByRole('link', { name: 'Begin Your Journey' }).waitFor();
  });

  it('refreshes at /token-refresh and goes to the redirect, replacing the history entry', async () => {
    const p = await openSignedIn();
    const before = await p.evaluate(() => JSON.parse(localStorage.getItem('authTokens')!) as { refresh: string });
    await p.goto(`${suite.server.url}/about`);
    await p.goto(`${suite.server.url}/token-refresh?redirect=%2Fdashboard`);
    await p.waitForURL('**/dashboard');
    const after = await p.evaluate(() => JSON.parse(localStorage.getItem('authTokens')!) as { refresh: string });
    expect(after.refresh).not.toBe(before.refresh);
    await p.goBack();
    await p.waitForURL('**/about'); // /token-refresh is no longer in the history
  });

  it('goes to /login when /token-refresh cannot refresh', async () => {
    const p = await open('/token-refresh?redirect=/about');
    await p.waitForURL('**/login');
  });

  it('never redirects to another site from /token-refresh', async () => {
    const p = await openSignedIn();
    // The second is a tab the browser drops, making //evil.example (it used to leave the page
    // at "Authenticating..." for good, the browser refusing the other site's URL).
    for (const target of ['//evil.example/steal', '/%09/evil.example/steal']) {
      await p.goto(`${suite.server.url}/token-refresh?redirect=${target}`);
      await p.waitForURL(`${suite.server.url}/dashboard`);
    }
  });

  it('logs out: spinner, server told, tokens cleared, back at /login', async () => {
    const p = await openSignedIn();
    const { refresh } = await p.evaluate(() => JSON.parse(localStorage.getItem('authTokens')!) as { refresh: string });
    await p.getByRole('link', { name: 'Logout' }).click();
    await p.waitForURL('**/login');
    expect(await p.evaluate(() => localStorage.getItem('authTokens'))).toBeNull();
    const reuse = await fetch(`${suite.server.url}/api/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refresh }),
    });
    expect(reuse.status).toBe(401);
    await expect(p.getByRole('link', { name: 'Login' }).isVisible()).resolves.toBe(true);
  });

  it('shows Read, About and Saved always, Dashboard, Insights and Logout when signed in, Login otherwise', async () => {
    const p = await open('/');
    const navLinks = async () => (await p.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).sort();
    expect(await navLinks()).toEqual(['About', 'Login', 'Read', 'Saved']);
    await signIn(p);
    await p.waitForURL('**/dashboard');
    expect(await navLinks()).toEqual(['About', 'Dashboard', 'Insights', 'Logout', 'Read', 'Saved']);
  });

  it('updates every open tab when the reader signs in or out in one', async () => {
    const p = await open('/about');
    const other = await context.newPage();
    await other.goto(`${suite.server.url}/about`);
    await signIn(p);
    await p.waitForURL('**/dashboard');
    await other.getByRole('link', { name: 'Logout' }).waitFor();
    await p.getByRole('link', { name: 'Logout' }).click();
    await other.getByRole('link', { name: 'Login' }).waitFor();
  });

  it('clears results for a blank query without calling the server, and says when nothing matched', async () => {
    const p = await openSignedIn();
    await search(p, QUESTION_OF_TWO_CARDS);
    await p.getByText('Result A').waitFor();
    let searches = 0;
    p.on('request', (r) => r.url().endsWith('/api/search') && searches++);
    await search(p, '   ');
    await p.getByText('Result A').waitFor({ state: 'detached' });
    expect(searches).toBe(0);
    await search(p, 'xylophone quasar');
    await p.getByText('No results found. Try a different query.').waitFor();
  });

  it('searches a new question asked while one loads, says which question the results answer, keeps the focus on Search while it loads, then gives it to the results', async () => {
    const p = await openSignedIn();
    const held = new Map<string, () => void>();
    const sent: string[] = [];
    await p.route('**/api/search', async (route) => {
      const { query } = route.request().postDataJSON() as { query: string };
      sent.push(query);
      if (query !== 'the duty of marriage') await new Promise<void>((resolve) => held.set(query, resolve));
      await route.continue();
    });
    const field = p.getByLabel('What would you like to know?');
    const button = p.getByRole('button', { name: 'Search' });
    await field.fill('the heart as a mirror');
    await field.press('Enter');
    await expect.poll(() => sent).toEqual(['the heart as a mirror']);
    // A new question while the first loads, from the button: it is sent, and its answer shown.
    await field.fill('the duty of marriage');
    await button.click();
    await p.getByText('Results for “the duty of marriage”').waitFor();
    expect(await p.getByRole('status').filter({ hasText: 'Results for' }).textContent()).toBe('Results for “the duty of marriage”');
    // The first question's answer, arriving last, does not replace it.
    const late = p.waitForResponse((r) => r.url().endsWith('/api/search') && r.request().postData()?.includes('mirror') === true);
    held.get('the heart as a mirror')!();
    await late;
    await p.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(await p.getByText('Results for “the duty of marriage”').count()).toBe(1);
    // The answer took the focus to the results; the same question asked twice as it loads goes once.
    expect(await p.evaluate(() => document.activeElement?.id)).toBe('results-heading');
    await field.fill('patience');
    await button.click();
    await button.click();
    await expect.poll(() => sent.filter((q) => q === 'patience').length).toBe(1);
    // Focus stays on Search through the loading, then goes to the results.
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    held.get('patience')!();
    await p.getByText('Results for “patience”').waitFor();
    await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('results-heading');
    expect(sent).toEqual(['the heart as a mirror', 'the duty of marriage', 'patience']);
  });

  it('says the search failed, in the spec’s words, when a search is made offline', async () => {
    const p = await openSignedIn();
    // Online first, so that the page has all it needs to show results and errors.
    await search(p, QUESTION_OF_TWO_CARDS);
    await p.getByText('Result A').waitFor();
    await p.evaluate(() => navigator.serviceWorker.ready);
    await context.setOffline(true);
    await search(p, 'the soul as a king');
    await p.getByRole('alert').getByText('Search failed', { exact: true }).waitFor();
    expect(await p.getByText('Failed to fetch').count()).toBe(0);
    await context.setOffline(false);
  });

  it('keeps a keyboard reader’s place after a vote, to go on to result B', async () => {
    const p = await openSignedIn();
    await search(p, QUESTION_OF_TWO_CARDS);
    await p.getByText('Result A').waitFor();
    await p.getByRole('button', { name: 'Good result (result A)' }).focus();
    await p.keyboard.press('Space');
    await p.getByText('Thank you for your feedback! You selected Good result').waitFor();
    await p.waitForFunction(() => document.activeElement?.closest('[data-testid="result-A"]') !== null);
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.closest('[data-testid="result-B"]') !== null)).toBe(true);
  });

  it('shows a passage both models chose once, says so, and takes one vote for it, counted apart', async () => {
    const p = await openSignedIn();
    const token = await p.evaluate(() => (JSON.parse(localStorage.getItem('authTokens') ?? '{}') as { access: string }).access);
    const api = async <T,>(path: string) => (await (await fetch(`${suite.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
    type Rounds = { rounds: { compared: number; samePassage: number } };
    const before = (await api<Rounds>('/api/stats')).rounds;
    // Every model of the pool gives this question the same first passage (questions.ts).
    await search(p, QUESTION_OF_ONE_CARD);
    await p.getByText('Both models chose the same passage.').waitFor();
    expect(await p.getByTestId('result-same').count()).toBe(1);
    expect(await p.getByTestId(/^result-[AB]$/).count()).toBe(0);
    expect(await p.getByRole('group', { name: /^How helpful is/ }).count()).toBe(1);
    await p.getByRole('button', { name: 'Good result (the passage both models chose)' }).click();
    await p.getByText('Thank you for your feedback! You selected Good result').waitFor();
    // One vote, stored for both models of the round: the same passage and reaction, A and B.
    const votes = await api<Array<Record<string, string>>>('/api/feedback?limit=2');
    expect(votes.map((v) => v.result_label).sort()).toEqual(['A', 'B']);
    expect(new Set(votes.map((v) => `${v.round_id} ${v.reaction} ${v.retrieved_text}`)).size).toBe(1);
    expect(votes[0]!.model_type).not.toBe(votes[1]!.model_type);
    await expect.poll(async () => (await api<Rounds>('/api/stats')).rounds).toEqual({ ...before, samePassage: before.samePassage + 1 });
  });

  it('shows the server’s detail when a search fails, with the results emptied', async () => {
    const p = await openSignedIn();
    await search(p, QUESTION_OF_TWO_CARDS);
    await p.getByText('Result A').waitFor();
    await context.route('**/api/search', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ detail: 'models must be both or one of lsa-96, sif-150' }) }),
    );
    await search(p, 'the heart as a lamp');
    await p.getByRole('alert').getByText('models must be both or one of lsa-96, sif-150').waitFor();
    expect(await p.getByText('Result A').count()).toBe(0);
  });

  it('takes no longer a question than a search does, and counts near the limit', async () => {
    const p = await openSignedIn();
    const field = p.getByLabel('What would you like to know?');
    const long = 'the heart and its patience '.repeat(40);
    await field.fill(long.slice(0, 899));
    expect(await p.getByText('of 1,000 characters').count()).toBe(0);
    await field.fill(long.slice(0, 1001));
    expect((await field.inputValue()).length).toBe(1000);
    await p.getByText('1,000 of 1,000 characters').waitFor();
    await p.getByRole('button', { name: 'Search' }).click();
    // Two results, or one passage both models chose.
    await p.getByTestId(/^result-(A|same)$/).waitFor();
    expect(await p.getByRole('alert').count()).toBe(0);
  });

  it('remembers the theme across a reload, starting from the system preference', async () => {
    const p = await open('/about', { colorScheme: 'dark' });
    expect(await p.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await p.getByTestId('theme-toggle').hover();
    await p.getByRole('tooltip').getByText('Switch to light mode').waitFor();
    await p.getByTestId('theme-toggle').click();
    expect(await p.evaluate(() => localStorage.getItem('themeMode'))).toBe('light');
    await p.reload();
    await expect.poll(() => p.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });

  it('turns the navigation into a 250 px drawer on a small screen', async () => {
    const p = await open('/', { width: 375 });
    await p.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = p.getByRole('dialog');
    await drawer.waitFor();
    expect(await drawer.evaluate((e) => getComputedStyle(e).width)).toBe('250px');
    await drawer.getByRole('link', { name: 'About' }).click();
    await p.waitForURL('**/about');
  });

  it('hides the bar on scroll down and brings it back on scroll up', async () => {
    const p = await open('/about', { width: 375 });
    await p.getByRole('heading', { name: 'The Team' }).waitFor();
    const bar = p.getByTestId('navbar');
    await p.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(async () => (await bar.boundingBox())!.y).toBeLessThan(0);
    await p.evaluate(() => window.scrollTo(0, 300));
    await expect.poll(async () => (await bar.boundingBox())!.y).toBe(0);
  });

  it('starts every route at the top of the page', async () => {
    const p = await open('/about', { width: 375 });
    await p.getByRole('heading', { name: 'The Team' }).waitFor();
    await p.evaluate(() => window.scrollTo(0, 800));
    await expect.poll(() => p.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await p.getByRole('link', { name: 'Privacy' }).click();
    await expect.poll(() => p.evaluate(() => window.scrollY)).toBe(0);
  });

  it('shows the live model lineup on the about page', async () => {
    const p = await open('/about');
    await p.getByTestId('model-lineup').getByText('“Shared themes”, “Words in context” and “Matches your words”', { exact: false }).waitFor();
    for (const heading of ['About', 'The Technology', 'The Book', 'The Team']) {
      await expect(p.getByRole('heading', { name: heading, exact: true }).isVisible()).resolves.toBe(true);
    }
    // This build names no source address (no VITE_SOURCE_URL, no repository in package.json): no link to a made-up one.
    expect(await p.getByRole('link', { name: 'Source repository' }).count()).toBe(0);
    expect(await p.getByRole('link', { name: 'Source code' }).count()).toBe(0);
  });

  it("audits with axe, passing over only Fluent's focus hand-off elements, never another focusable element hidden from screen readers", async () => {
    const p = await open('/about', { bypassCSP: true });
    await p.getByRole('heading', { name: 'The Team' }).waitFor();
    await p.evaluate(() => {
      const handOff = document.createElement('i');
      Object.assign(handOff, { tabIndex: 0 });
      handOff.setAttribute('data-tabster-dummy', '');
      handOff.setAttribute('aria-hidden', 'true');
      document.body.append(handOff);
    });
    expect(await axeViolations(p)).toEqual([]);
    await p.evaluate(() => {
      const hidden = document.createElement('button');
      hidden.textContent = 'Hidden';
      hidden.id = 'hidden-but-focusable';
      hidden.setAttribute('aria-hidden', 'true');
      document.body.append(hidden);
    });
    expect(await axeViolations(p)).toEqual(['aria-hidden-focus: #hidden-but-focusable']);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      it(`has no axe violations and is screenshotted, ${colorScheme} at ${width} px`, async () => {
        // axe is injected as an inline script, which our CSP rightly blocks: bypass it for the audit only.
        const p = await open('/', { colorScheme, width, bypassCSP: true });
        const shots: Array<[string, string]> = [
          ['/', 'landing'],
          ['/login', 'login'],
          ['/about', 'about'],
        ];
        for (const [route, name] of shots) {
          await p.goto(suite.server.url + route);
          await p.waitForLoadState('networkidle');
          await p.getByRole('heading', { level: 1 }).waitFor();
          expect(await axeViolations(p), `${name} ${colorScheme} ${width}`).toEqual([]);
          await screenshot(p, `${name}-${colorScheme}-${width}`);
        }
        await signIn(p);
        await p.waitForURL('**/dashboard');
        await search(p, 'What are angels?');
        await p.getByText('Result B').waitFor();
        expect(await axeViolations(p), `dashboard ${colorScheme} ${width}`).toEqual([]);
        await screenshot(p, `dashboard-${colorScheme}-${width}`);
        await p.getByRole('button', { name: 'Somewhat relevant (result B)' }).click();
        await p.getByText('Thank you for your feedback! You selected Somewhat relevant').waitFor();
        await screenshot(p, `dashboard-voted-${colorScheme}-${width}`);
      });
    }
  }
});
