import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_FILE } from '../repo-files.ts';
import { launchBrowser } from '../../scripts/chromium.ts';
import { newContext, openUnderWorker, submitSignIn } from './browser.ts';
import { DEVICE_QUESTIONS_OF_TWO_CARDS } from './questions.ts';
import { freePort, startServerProcess, type RunningServer } from './server-process.ts';

const PASSWORD = 'demo password 1';
/** The models the offline book holds: the pool's vector models. */
const PACKED_MODELS = ['lsa-96', 'sif-150'];

interface StoredVote {
  query: string;
  result_label: string;
  reaction: string;
  model_type: string;
  retrieved_text: string;
}

interface Result {
  text: string;
  model_type: string;
}

/** The server, stopped and started again on one port and data folder. */
class Server {
  process: RunningServer | null = null;
  dataDir: string | undefined;
  constructor(readonly port: number) {}
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  /** `env`: settings this start runs with, kept for the starts after it. */
  private env: Record<string, string> = {};
  async up(env: Record<string, string> = {}) {
    this.env = { ...this.env, ...env };
    this.process = await startServerProcess({
      PORT: String(this.port),
      DEMO_PASSWORD: PASSWORD,
      SEARCH_RATE_LIMIT: '0',
      ...this.env,
      ...(this.dataDir ? { DATA_DIR: this.dataDir } : {}),
    });
    this.dataDir = this.process.dataDir;
  }
  async down() {
    await this.process?.stop('SIGTERM');
    this.process = null;
  }
  /**
   * Each model's first passage for the question, as the server answers it: by default the models
   * the offline book holds (the server's pool also has the keyword arm, which a device does not).
   */
  async firstPassages(query: string, models = PACKED_MODELS): Promise<Result[]> {
    const firsts: Result[] = [];
    for (const model of models) {
      const body = JSON.stringify({ query, models: model, top_k: 1 });
      const reply = await fetch(`${this.url}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      firsts.push(...((await reply.json()) as Result[]).map(({ text, model_type }) => ({ text, model_type })));
    }
    return firsts;
  }
  async packVersion(): Promise<string> {
    return ((await (await fetch(`${this.url}/api/offline-pack`)).json()) as { version: string }).version;
  }
  private async token(): Promise<string> {
    const login = await fetch(`${this.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo', password: PASSWORD, grant_type: 'password' }).toString(),
    });
    return ((await login.json()) as { access_token: string }).access_token;
  }
  async votes(query: string): Promise<StoredVote[]> {
    const headers = { authorization: `Bearer ${await this.token()}` };
    const stored = (await (await fetch(`${this.url}/api/feedback?limit=100`, { headers })).json()) as StoredVote[];
    return stored.filter((v) => v.query === query);
  }
  /** The statistics' count of votes, and of those left out by why. */
  async counted(): Promise<{ votes: number; leftOutVotes: Record<string, number> }> {
    const headers = { authorization: `Bearer ${await this.token()}` };
    return (await (await fetch(`${this.url}/api/stats`, { headers })).json()) as { votes: number; leftOutVotes: Record<string, number> };
  }
}

describe('search on the device, in Chromium, with no network and with the server gone', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let server: Server;
  const errors: string[] = [];
  /** The page's requests to the API, for a failure to tell what happened. */
  const apiLog: string[] = [];
  /** Votes delivered so far: each one counts. */
  let delivered = 0;

  beforeAll(async () => {
    browser = await launchBrowser();
    server = new Server(await freePort());
    await server.up();
    context = await newContext(browser);
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    const note = (what: string) => (request: Request) => {
      if (request.url().includes('/api/')) apiLog.push(`${new Date().toISOString()} ${what} ${request.method()} ${new URL(request.url()).pathname} ${request.failure()?.errorText ?? ''}`);
    };
    page.on('request', note('sent'));
    page.on('requestfinished', note('answered'));
    page.on('requestfailed', note('failed'));
    await openUnderWorker(page, server.url);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.down();
  });

  /** Asks the dashboard, and reads the two passages shown as A and B. */
  async function ask(query: string): Promise<Result[]> {
    await page.getByLabel('What would you like to know?').fill(query);
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .getByText(`Results for “${query}”`)
      .waitFor({ timeout: 20_000 })
      .catch(async (error: Error) => {
        // Rare under a loaded CI machine, and not yet explained: say what the page showed and what it asked.
        const shown = (await page.locator('main').innerText().catch(() => '(no main)')).slice(0, 800);
        throw new Error(`${error.message}\nThe page shows:\n${shown}\nIts last requests to the API:\n${apiLog.slice(-12).join('\n')}`);
      });
    const passage = async (testId: string) => ({ text: (await page.getByTestId(testId).locator('p').first().innerText()).trim(), model_type: '' });
    // A passage both models chose is shown once.
    if (await page.getByTestId('result-same').count()) return [await passage('result-same'), await passage('result-same')];
    return [await passage('result-A'), await passage('result-B')];
  }

  /** The same two passages as the server's first per model, in whichever order A and B show them. */
  function expectSamePassages(shown: Result[], server: Result[]) {
    expect(shown.map((r) => r.text).sort()).toEqual(server.map((r) => r.text.trim()).sort());
  }

  /** A vote, given now and delivered once the server can be reached: stored once, as the server would have shown it. */
  async function voteAndDeliver(query: string, label: 'A' | 'B', meaning: string, reaction: string, bringBack: () => Promise<void>, expected: Result[]) {
    await page.getByRole('button', { name: `${meaning} (result ${label})` }).click();
    await page.getByText(`Thank you for your feedback! You selected ${meaning}`).waitFor();
    await page.getByText('will be sent as soon as the server can be reached').waitFor();
    await bringBack();
    const pending = page.getByTestId('outbox-pending');
    // The outbox sends on its own when the network comes back; a reader may press Send now as well.
    if (await pending.isVisible()) await pending.getByRole('button', { name: 'Send now' }).click({ timeout: 2_000 }).catch(() => undefined);
    await pending.waitFor({ state: 'detached', timeout: 40_000 });
    const votes = await server.votes(query);
    expect(votes).toHaveLength(1);
    expect(votes[0]).toMatchObject({ result_label: label, reaction });
    // What the server would have shown for this question, under its model's own name: the arena
    // finds its passage among what its model shows, and counts it.
    expect(expected.map((r) => `${r.model_type}|${r.text.trim()}`)).toContain(`${votes[0]!.model_type}|${votes[0]!.retrieved_text.trim()}`);
    const counted = await server.counted();
    expect(counted.leftOutVotes).toMatchObject({ notShown: 0, unknownModel: 0, unchecked: 0 });
    expect(counted.votes).toBe(++delivered);
  }

  it('downloads the book once, its size stated first, with a progress bar', async () => {
    await submitSignIn(page, server.url, 'demo', PASSWORD);
    await page.waitForURL('**/dashboard');
    const offer = page.getByRole('button', { name: /^Make the book available offline \(\d+\.\d MB\)$/ });
    await offer.waitFor({ timeout: 30_000 });
    // A slow connection (2 MB/s), so that the download can be watched.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 2_000_000, uploadThroughput: 2_000_000 });
    await offer.click();
    const bar = page.getByRole('progressbar', { name: 'Offline book download' });
    await bar.waitFor();
    await page.getByText(/^Downloading the book: \d+\.\d MB of \d+\.\d MB$/).waitFor();
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(0.2);
    await page.getByText('The book is available offline on this device').waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
    expect(errors).toEqual([]);
  });

  it('answers on the device with no network, as the server does, and delivers the vote once when back online', async () => {
    // A question the two models answer with two passages, to vote on A.
    const query = DEVICE_QUESTIONS_OF_TWO_CARDS.onA;
    const expected = await server.firstPassages(query);
    await context.setOffline(true);
    const shown = await ask(query);
    await page.getByTestId('answered-on-device').waitFor();
    expectSamePassages(shown, expected);
    await voteAndDeliver(query, 'A', 'Good result', '👍', () => context.setOffline(false), expected);
  });

  it('answers on the device with the server stopped, and delivers the vote once when it is back', async () => {
    const query = DEVICE_QUESTIONS_OF_TWO_CARDS.onB;
    const expected = await server.firstPassages(query);
    await server.down();
    const shown = await ask(query);
    await page.getByTestId('answered-on-device').waitFor();
    // Said in plain words, with a way to ask the server again.
    await page.getByTestId('answered-on-device').getByText('The server did not answer, so these passages come from the copy of the book kept on this device.').waitFor();
    expect(await page.getByTestId('answered-on-device').getByRole('button', { name: 'Ask the server again' }).count()).toBe(1);
    expectSamePassages(shown, expected);
    await voteAndDeliver(query, 'B', 'Not relevant', '👎', () => server.up(), expected);
  });

  it('answers on the device when the server does not answer within 4 seconds, and from the server again once it does', async () => {
    const query = 'Is hypocrisy a sin of the heart?';
    const expected = await server.firstPassages(query);
    await context.route('**/api/search', () => undefined); // taken, never answered
    const started = Date.now();
    expectSamePassages(await ask(query), expected);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    await page.getByTestId('answered-on-device').waitFor();
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    // The server's own answer again: a pair it drew from its pool, keyword arm and all.
    const pool = (await server.firstPassages('the world as a sorceress', [...PACKED_MODELS, 'bm25'])).map((r) => r.text.trim());
    for (const shown of await ask('the world as a sorceress')) expect(pool).toContain(shown.text);
    expect(await page.getByTestId('answered-on-device').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  /** The version of the pack this browser keeps, read from its IndexedDB. */
  const keptVersion = () =>
    page.evaluate(
      () =>
        new Promise<string | null>((resolve, reject) => {
          const open = indexedDB.open('alchemy-offline-book');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('pack')) return resolve(null);
            const read = db.transaction('pack').objectStore('pack').get('info');
            read.onsuccess = () => {
              db.close();
              resolve((read.result as { version?: string } | undefined)?.version ?? null);
            };
          };
        }),
    );

  it('replaces the kept book in the background, whole, when the server has a new version, and answers as the new server does', async () => {
    const before = await keptVersion();
    expect(before).toBe(await server.packVersion());
    // The book, one word changed: a new book, so new models and a new pack.
    const changed = path.join(await mkdtemp(path.join(tmpdir(), 'changed-book-')), 'book.md');
    await writeFile(changed, (await readFile(CORPUS_FILE, 'utf8')).replace(' his own soul ', ' his own spirit '));
    await server.down();
    await server.up({ CORPUS_FILE: changed });
    const after = await server.packVersion();
    expect(after).not.toBe(before);
    await page.reload();
    await expect.poll(keptVersion, { timeout: 60_000 }).toBe(after);
    await page.getByText('The book is available offline on this device').waitFor();
    const query = 'the soul and its eternal prospects';
    const expected = await server.firstPassages(query);
    await context.setOffline(true);
    expectSamePassages(await ask(query), expected);
    await page.getByTestId('answered-on-device').waitFor();
    await context.setOffline(false);
  });

  it('offers the book again once the browser has cleared it, and searches fail as without it', async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin: server.url, storageTypes: 'indexeddb' });
    await cdp.detach();
    await page.reload();
    await page.getByRole('button', { name: /^Make the book available offline \(\d+\.\d MB\)$/ }).waitFor();
    await context.setOffline(true);
    await page.getByLabel('What would you like to know?').fill('the love of God');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('alert').getByText('Search failed').waitFor();
    await context.setOffline(false);
  });

  it('removes the book, and then offers it again', async () => {
    await page.getByRole('button', { name: /^Make the book available offline/ }).click();
    await page.getByRole('button', { name: 'Remove the offline book' }).click({ timeout: 60_000 });
    await page.getByRole('button', { name: /^Make the book available offline/ }).waitFor();
    expect(await keptVersion()).toBeNull();
    expect(errors).toEqual([]);
  });

  it('refuses a pack damaged on the way, whose length and first bytes are right, and says so: nothing is kept', async () => {
    // Something between the server and the browser changes one byte in the middle of the file.
    let damaged = 0;
    await context.route(/\/api\/offline-pack\/[0-9a-f]{16}$/, async (route) => {
      const response = await route.fetch();
      const body = Buffer.from(await response.body());
      const middle = body.length >> 1;
      body[middle] = body[middle]! ^ 0x01;
      damaged++;
      await route.fulfill({ status: 200, body, headers: { 'content-type': 'application/octet-stream', 'content-length': String(body.length) } });
    });
    await page.getByRole('button', { name: /^Make the book available offline/ }).click();
    await page
      .getByRole('alert')
      .getByText('The offline book arrived damaged: it is not the file the server offered (its SHA-256 checksum does not match). Nothing was saved; try again.')
      .waitFor({ timeout: 60_000 });
    expect(damaged).toBe(1);
    expect(await keptVersion()).toBeNull();
    await page.getByRole('button', { name: /^Make the book available offline/ }).waitFor();
    // Offline, the device has no book to answer with: the search fails as without one.
    await context.setOffline(true);
    await page.getByLabel('What would you like to know?').fill('the love of God');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('alert').getByText('Search failed').waitFor();
    await context.setOffline(false);
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    expect(errors).toEqual([]);
  });
});
