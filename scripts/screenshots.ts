// Takes the README's pictures from the real app: the dashboard with results A and B (light theme,
// 1280 px) and the same on a phone (390 px). Starts the built server (`npm start`) on a free port
// with a temporary DATA_DIR, signs in as demo through the sign-in form, asks one question, and
// writes docs/images/dashboard.png and docs/images/phone.png. Needs Debian's chromium.
// Usage: npm run screenshots
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';

const QUESTION = 'How can I stop worrying about what other people think of me?';
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
  await page.getByText('Result A').waitFor();
  await page.getByText('Result B').waitFor();
  await page.evaluate(() => document.fonts.ready);
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'alchemy-screenshots-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn('npm', ['start'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO_PASSWORD: PASSWORD, MODEL_FETCH: 'never', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
try {
  console.log(`Starting the app on ${url} (a build first if the sources changed)…`);
  await waitForReady(url);
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  for (const [name, width, height] of [['dashboard', 1280, 1000], ['phone', 390, 844]] as const) {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme: 'light', deviceScaleFactor: name === 'phone' ? 2 : 1 });
    const page = await context.newPage();
    await askAndWait(page, url);
    // On a phone the cards stand below the search box: the picture starts at the results.
    if (name === 'phone') await page.getByRole('heading', { name: 'Search Results' }).evaluate((heading) => heading.scrollIntoView());
    const file = path.join(outDir, `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`  ${path.relative(root, file)}`);
    await context.close();
  }
  await browser.close();
} finally {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
