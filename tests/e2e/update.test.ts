import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../scripts/chromium.ts';
import { newContext, openUnderWorker, waitForApp } from './browser.ts';
import { startServerProcess, type RunningServer } from './server-process.ts';

const UPDATE_PROMPT = 'A new version is available';

describe('a new version, in Chromium', () => {
  let browser: Browser;
  let server: RunningServer;
  let build: string;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    // A copy of the build that the test can turn into a new version.
    build = path.join(await mkdtemp(path.join(tmpdir(), 'update-')), 'dist');
    await cp(path.resolve('dist'), build, { recursive: true });
    [browser, server] = await Promise.all([launchBrowser(), startServerProcess({ STATIC_DIR: build })]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A page of the app under its service worker's control. */
  const controlledPage = async (ctx: BrowserContext, route: string): Promise<Page> => openUnderWorker(await ctx.newPage(), `${server.url}${route}`);

  /** Publishes a new version of the service worker (a build's sw.js differs whenever anything it precaches does). */
  async function publishNewWorker(): Promise<void> {
    await appendFile(path.join(build, 'sw.js'), `\n// a new version ${Date.now()}\n`);
    await rm(path.join(build, 'sw.js.br'), { force: true });
    await rm(path.join(build, 'sw.js.gz'), { force: true });
  }

  const workerScript = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
  const activeWorkerChanged = (page: Page) =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: registration?.waiting !== null, controllerIsActive: navigator.serviceWorker.controller === registration?.active };
    });

  it('moves every open tab to the new version: Reload in the second works once the first has applied it', async () => {
    context = await newContext(browser);
    const first = await controlledPage(context, '/about');
    const second = await controlledPage(context, '/');
    await publishNewWorker();
    await first.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await first.getByText(UPDATE_PROMPT).waitFor();
    await second.getByText(UPDATE_PROMPT).waitFor();

    // The first tab applies the update and reloads into it.
    await Promise.all([first.waitForEvent('load'), first.getByRole('button', { name: 'Reload' }).click()]);
    await waitForApp(first);
    expect(await first.getByText(UPDATE_PROMPT).count()).toBe(0);
    expect(await activeWorkerChanged(first)).toEqual({ waiting: false, controllerIsActive: true });

    // The second still runs the old version's code under the new worker: it still offers the
    // update, and its Reload reloads it (it did nothing: the worker it would have activated was
    // already active).
    await second.getByText(UPDATE_PROMPT).waitFor();
    await Promise.all([second.waitForEvent('load', { timeout: 10_000 }), second.getByRole('button', { name: 'Reload' }).click()]);
    await waitForApp(second);
    expect(await second.getByText(UPDATE_PROMPT).count()).toBe(0);
    expect(await workerScript(second)).toBe(await workerScript(first));
  });

  it('reloads into the current version when a route’s code is gone, once: a second failure shows the crash screen', async () => {
    // No worker here: the route's code comes from the network, as it does before the worker is
    // installed, or for a page whose version's code the new worker no longer has.
    context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    let refused = 0;
    let failuresLeft = 1;
    await page.route('**/assets/AboutPage-*.js', async (route) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        refused++;
        return route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Not found"}' });
      }
      return route.continue();
    });
    let loads = 0;
    page.on('load', () => loads++);
    await page.goto(server.url);
    await waitForApp(page);
    await page.getByRole('link', { name: 'About' }).first().click();
    // The reload may come just after the route has shown: the import itself can succeed where the
    // modulepreload before it failed.
    await expect.poll(() => loads, { timeout: 15_000 }).toBe(2);
    await page.getByRole('heading', { level: 1, name: /About/ }).waitFor();
    expect({ refused, loads, url: new URL(page.url()).pathname }).toEqual({ refused: 1, loads: 2, url: '/about' });
    expect(await page.getByText('Something went wrong').count()).toBe(0);

    // Gone for good: one reload, then the crash screen with its own Reload, not a loop.
    failuresLeft = 99;
    await page.goto(server.url);
    await waitForApp(page);
    await page.evaluate(() => sessionStorage.clear());
    loads = 0;
    refused = 0;
    await page.getByRole('link', { name: 'About' }).first().click();
    await page.getByText('Something went wrong').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1_000);
    // Asked for before the reload and again after it (Chromium asks twice on a pre-rendered page:
    // its modulepreload, then the import, a failed preload not being reused), and one reload only.
    expect(loads).toBe(1);
    expect(refused).toBeGreaterThanOrEqual(2);
    expect(refused).toBeLessThanOrEqual(4);

    // The server not answering: no reload to the browser's error page; the crash screen stays.
    await page.goto(server.url);
    await waitForApp(page);
    await page.evaluate(() => sessionStorage.clear());
    await page.route('**/about', (route) => (route.request().method() === 'HEAD' ? route.abort('connectionrefused') : route.continue()));
    loads = 0;
    await page.getByRole('link', { name: 'About' }).first().click();
    await page.getByText('Something went wrong').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1_000);
    expect(loads).toBe(0);
    expect(await page.getByText('Network error. Please try again.').count()).toBe(1);
  });

  it('leaves to the server what the server does not answer with the app: the API however spelt, and files', async () => {
    context = await newContext(browser);
    const page = await controlledPage(context, '/');
    const api = await page.goto(`${server.url}/%61pi/health`);
    expect(api?.headers()['content-type']).toMatch(/application\/json/);
    expect(await api?.json()).toMatchObject({ status: 'ok' });
    for (const file of ['/nonexistent.png', '/sw.js.map.missing']) {
      const res = await page.goto(`${server.url}${file}`);
      expect(res?.status(), file).toBe(404);
      expect(await res?.json(), file).toEqual({ detail: 'Not found' });
    }
    // The app's routes still open from the worker's shell.
    const route = await page.goto(`${server.url}/dashboard`);
    expect(route?.fromServiceWorker()).toBe(true);
  });
});
