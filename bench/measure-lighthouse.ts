import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium.ts';
import { freePort } from '../scripts/server-process.ts';

export interface LighthouseScores {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  /**
   * Lighthouse's own measure of the host's CPU (its `benchmarkIndex`, median of the runs): its
   * 4× slowdown stands for a mid-tier phone on a host of 1,500 to 2,000, a slower phone below
   * that, so a score is read beside it (Lighthouse, docs/throttling.md).
   */
  hostIndex: number;
  /** Total blocking time, ms (median): the sum over the main thread's long tasks of their time past 50 ms. */
  tbtMs: number;
  /** Largest contentful paint, ms (median). */
  lcpMs: number;
}

/** A reader to sign in as before the paths that need one (through the page's own sign-in form). */
export interface Reader {
  username: string;
  password: string;
  /** Paths measured signed in, after the others. */
  paths: string[];
}

/**
 * Signs `reader` in through /login in the browser Lighthouse drives (its default profile), so the
 * session the app keeps in localStorage is there for the signed-in paths.
 */
async function signIn(port: number, base: string, reader: Reader): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${base}/login`);
    await page.waitForSelector('html[data-theme]', { state: 'attached' });
    await page.getByLabel('Username').fill(reader.username);
    await page.getByLabel('Password').fill(reader.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    await page.close();
  } finally {
    // Disconnects; the browser goes on for Lighthouse.
    await browser.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Lighthouse's default (mobile, simulated throttling) on each path, in Debian's Chromium: the
 * median of `runs` runs per path, as Lighthouse advises (one run varies by ±5 points here).
 */
export async function measureLighthouse(base: string, paths: string[], runs = 3, reader?: Reader): Promise<LighthouseScores[]> {
  const port = await freePort();
  const profile = await mkdtemp(path.join(tmpdir(), 'lighthouse-'));
  const chrome = spawn(chromiumPath(), [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 50; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const scores: LighthouseScores[] = [];
    const all = [...paths.map((p) => ({ p, signedIn: false })), ...(reader?.paths ?? []).map((p) => ({ p, signedIn: true }))];
    let signedIn = false;
    for (const { p, signedIn: needsReader } of all) {
      if (needsReader && !signedIn && reader) {
        await signIn(port, base, reader);
        signedIn = true;
      }
      const samples: Array<Record<string, number>> = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(`${base}${p}`, {
          port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          // A signed-in path keeps the session (and with it the service worker and caches a reader would have).
          disableStorageReset: needsReader,
        });
        const categories = result!.lhr.categories;
        const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
        samples.push({
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          hostIndex: Math.round(result!.lhr.environment.benchmarkIndex),
          tbtMs: Math.round(result!.lhr.audits['total-blocking-time']?.numericValue ?? 0),
          lcpMs: Math.round(result!.lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
        });
      }
      const of = (key: Exclude<keyof LighthouseScores, 'path'>) => median(samples.map((s) => s[key]!));
      scores.push({
        path: p,
        performance: of('performance'),
        accessibility: of('accessibility'),
        bestPractices: of('bestPractices'),
        hostIndex: of('hostIndex'),
        tbtMs: of('tbtMs'),
        lcpMs: of('lcpMs'),
      });
    }
    return scores;
  } finally {
    const exited = new Promise((resolve) => chrome.once('exit', resolve));
    chrome.kill('SIGKILL');
    await exited;
    await rm(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}
