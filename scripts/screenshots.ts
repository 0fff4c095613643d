// Takes the README's pictures from the real app: the dashboard with results A and B (1280 px wide,
// down to the end of both cards) and the same on a phone (390 px, down to the end of the first
// card), each in the light and the dark theme. Starts the built server (`npm start`) on a
// free port with a temporary DATA_DIR, signs in as demo through the sign-in form, asks one question,
// and writes docs/images/{dashboard,phone}{,-dark}.png. Needs Debian's chromium.
// Usage: npm run screenshots
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';

// A question the book answers well, asked of the weight-free lineup's two vector models (LSA and
// SIF: ARENA_ARMS below), which find two different passages on it. With BM25 in the pool the draw
// may pair it with LSA, and both then choose the same passage: one card, not the two shown here.
const QUESTION = 'What is true happiness?';
const ARENA_ARMS = JSON.stringify([{ kind: 'lsa' }, { kind: 'sif' }]);
const PASSWORD = 'screenshot-demo-password';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'docs/images');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForReady(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${url}/api/health/ready`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server was not ready in 5 minutes');
}

async function askAndWait(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.waitForSelector('html[data-theme]', { state: 'attached' });
  await page.getByLabel('Username').fill('demo');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByLabel('What would you like to know?').fill(QUESTION);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('Result A', { exact: true }).waitFor();
  await page.getByText('Result B', { exact: true }).waitFor();
  // A picture of the app at its best: two passages, neither of them a "says little" answer.
  if (await page.getByTestId('says-little').count()) throw new Error(`the book "says little" about ${QUESTION}: choose another question`);
  await page.evaluate(() => document.fonts.ready);
}

/** The bottom of the lowest of these result cards, in the page's coordinates (px). */
async function cardsBottom(page: Page, labels: string[]): Promise<number> {
  const cards = page.locator(labels.map((label) => `[data-testid="result-${label}"]`).join(', '));
  const bottoms = await cards.evaluateAll((found) => found.map((card) => card.getBoundingClientRect().bottom + window.scrollY));
  return Math.max(...bottoms);
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'alchemy-screenshots-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn('npm', ['start'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO_PASSWORD: PASSWORD, ARENA_ARMS, MODEL_FETCH: 'never', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
try {
  console.log(`Starting the app on ${url} (a build first if the sources changed)…`);
  await waitForReady(url);
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  for (const theme of ['light', 'dark'] as const) {
    for (const [name, width, height] of [['dashboard', 1280, 1000], ['phone', 390, 844]] as const) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme: theme, deviceScaleFactor: name === 'phone' ? 2 : 1 });
      const page = await context.newPage();
      await askAndWait(page, url);
      const file = path.join(outDir, `${name}${theme === 'dark' ? '-dark' : ''}.png`);
      // From the top of the page (the navigation: on a phone, its menu button) to the end of the
      // cards, reaction buttons included: both side by side at 1280 px, the first on a phone.
      // The screen is made that tall: a picture of the whole page would draw the sticky
      // navigation bar where the app had scrolled to (a phone moves to the results by itself).
      await page.evaluate(() => window.scrollTo(0, 0));
      const bottom = await cardsBottom(page, name === 'dashboard' ? ['A', 'B'] : ['A']);
      await page.setViewportSize({ width, height: Math.ceil(bottom) + 12 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: file });
      console.log(`  ${path.relative(root, file)}`);
      await context.close();
    }
  }
  await browser.close();
} finally {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
