import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../../scripts/chromium.ts';
import { startServerProcess, type RunningServer } from './server-process.ts';

/**
 * For a suite: the server started as npm start runs it (with `env`) and Chromium, both up before
 * the suite's first test and stopped after its last.
 */
export function serverAndBrowser(env: Record<string, string>): { readonly server: RunningServer; readonly browser: Browser } {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServerProcess(env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('the server is not started yet');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not launched yet');
      return browser;
    },
  };
}
