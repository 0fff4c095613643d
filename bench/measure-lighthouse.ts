import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
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
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Lighthouse's default (mobile, simulated throttling) on each path, in Debian's Chromium: the
 * median of `runs` runs per path, as Lighthouse advises (one run varies by ±5 points here).
 */
export async function measureLighthouse(base: string, paths: string[], runs = 3): Promise<LighthouseScores[]> {
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
    for (const p of paths) {
      const samples: Array<Record<string, number>> = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(`${base}${p}`, {
          port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        });
        const categories = result!.lhr.categories;
        const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
        samples.push({
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          hostIndex: Math.round(result!.lhr.environment.benchmarkIndex),
        });
      }
      const of = (key: Exclude<keyof LighthouseScores, 'path'>) => median(samples.map((s) => s[key]!));
      scores.push({ path: p, performance: of('performance'), accessibility: of('accessibility'), bestPractices: of('bestPractices'), hostIndex: of('hostIndex') });
    }
    return scores;
  } finally {
    const exited = new Promise((resolve) => chrome.once('exit', resolve));
    chrome.kill('SIGKILL');
    await exited;
    await rm(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}
