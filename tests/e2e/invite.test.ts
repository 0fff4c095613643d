import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';
import { newContext, screenshot, waitForApp, axeViolations } from './browser.ts';
import { serverAndBrowser } from './suite.ts';

const run = promisify(execFile);

describe('an invitation link in Chromium, against the real server', () => {
  const suite = serverAndBrowser({ DEMO_PASSWORD: 'demo password 1', INVITE_RATE_LIMIT: '0' });

  /** npm run users -- invite, through the running server's admin socket (it holds the embedded store): the link. */
  async function invite(args: string[] = []): Promise<string> {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', 'invite', ...args], {
      env: { ...process.env, DATA_DIR: suite.server.dataDir, DATABASE_URL: '', PUBLIC_URL: suite.server.url },
    });
    const link = stdout.split('\n')[0]!;
    expect(link).toMatch(new RegExp(`^${suite.server.url}/invite/[\\w-]{43}$`));
    return link;
  }


  it('opens the link, makes the account and lands on the dashboard signed in; the link then says it was used', async () => {
    const link = await invite(['--type', 'ustaz']);
    const context = await newContext(suite.browser);
    try {
      const page = await context.newPage();
      await page.goto(link);
      await waitForApp(page);
      await expect(page.getByText('You are invited as an Ustaz.').waitFor()).resolves.toBeUndefined();
      await page.getByLabel('Username').fill('Rabia');
      await page.locator('input[name="password"]').fill('rabia long password');
      await page.getByLabel('Confirm password').fill('rabia long passwort');
      await page.getByRole('button', { name: 'Create account and sign in' }).click();
      await expect(page.getByText('The two passwords are not the same').waitFor()).resolves.toBeUndefined();
      await page.getByLabel('Confirm password').fill('rabia long password');
      await page.getByRole('button', { name: 'Create account and sign in' }).click();
      await page.waitForURL('**/dashboard');
      await expect(page.getByText('Welcome, rabia.', { exact: false }).waitFor()).resolves.toBeUndefined();
      expect(await page.evaluate(() => Object.values(localStorage).some((value) => value.includes('Ustaz')))).toBe(true);

      await page.goto(link);
      await expect(page.getByRole('alert').filter({ hasText: 'This invitation has already been used.' }).waitFor()).resolves.toBeUndefined();
      await expect(page.getByRole('link', { name: 'Sign in' }).waitFor()).resolves.toBeUndefined();
    } finally {
      await context.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      it(`has no axe violations and is screenshotted, ${colorScheme} at ${width} px`, async () => {
        const link = await invite();
        // axe is injected as an inline script, which our CSP rightly blocks: bypass it for the audit only.
        const context = await newContext(suite.browser, { colorScheme, width, bypassCSP: true });
        try {
          const page = await context.newPage();
          await page.goto(link);
          await waitForApp(page);
          await page.getByLabel('User Type').waitFor();
          expect(await axeViolations(page), `invite ${colorScheme} ${width}`).toEqual([]);
          await screenshot(page, `invite-${colorScheme}-${width}`);
          // The form's own messages, as a reader who sends it empty sees them.
          await page.getByRole('button', { name: 'Create account and sign in' }).click();
          await page.getByText('Choose a username').waitFor();
          expect(await axeViolations(page), `invite errors ${colorScheme} ${width}`).toEqual([]);
          await screenshot(page, `invite-errors-${colorScheme}-${width}`);
          await page.goto(`${suite.server.url}/invite/not-a-real-token`);
          await page.getByRole('alert').waitFor();
          expect(await axeViolations(page), `invite refused ${colorScheme} ${width}`).toEqual([]);
          await screenshot(page, `invite-refused-${colorScheme}-${width}`);
        } finally {
          await context.close();
        }
      });
    }
  }
});
