import { build } from 'esbuild';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium.ts';

/** The offline book's figures: its size, its loading, and a search on the device. */
export interface OfflineFigures {
  /** Bytes the download transfers (brotli, as Chromium asks for it), and bytes kept on the device. */
  transferBytes: number;
  storedBytes: number;
  /** With the CPU slowed: median time from reading the pack in IndexedDB to a first answer (the worker's code, fresh each time). */
  loadMs: number;
  /** With the CPU slowed: 75th percentile of a question's time to its results. */
  searchP75Ms: number;
  /** The same two, in the app's own search worker, which Chromium cannot slow (message round trips included). */
  workerLoadMs: number;
  workerSearchP75Ms: number;
  searches: number;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

/** The bytes a GET transfers (its body as sent, not decoded), with `accept-encoding`. */
function transferred(url: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The app's search worker (src/features/offline/search-worker.ts), bundled to run on a page's
 * main thread: its `self` a stand-in that takes one message and gives back the reply. Chromium's
 * CPU throttling slows a page's main thread but not its workers ("Operation is only supported for
 * pages, not workers"), so the worker's own code is timed there, slowed.
 */
async function workerOnMainThread(): Promise<string> {
  const result = await build({
    entryPoints: [path.resolve('src/features/offline/search-worker.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    minify: true,
    target: 'es2022',
  });
  const code = result.outputFiles[0]!.text;
  return `window.offlineWorkerCopy = () => {
    let handle; let answer;
    const scope = { postMessage: (reply) => answer(reply), set onmessage(handler) { handle = handler; } };
    (function (self) { ${code} })(scope);
    return (message) => new Promise((resolve) => { answer = resolve; handle({ data: message }); });
  };`;
}

/** Times `loads` fresh loads and then each question, in the page, by `ask(message)` of a worker made by `make`. */
function timeIn(page: Page, make: 'copy' | string, loads: number, questions: string[]) {
  // Written without named functions inside: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    async ({ make, loads, questions }) => {
      let id = 0;
      const loadTimes: number[] = [];
      const searchTimes: number[] = [];
      let copy: ((message: Record<string, unknown>) => Promise<{ error?: string }>) | undefined;
      let worker: Worker | undefined;
      for (let i = 0; i < loads + questions.length; i++) {
        const loading = i < loads;
        const message = loading ? { type: 'load', id: ++id } : { type: 'search', query: questions[i - loads], id: ++id };
        const started = performance.now();
        if (loading && make === 'copy') copy = (window as unknown as { offlineWorkerCopy: () => typeof copy }).offlineWorkerCopy();
        if (loading && make !== 'copy') {
          worker?.terminate();
          worker = new Worker(make, { type: 'module' });
        }
        const w = worker;
        const reply = copy
          ? await copy(message)
          : await new Promise<{ error?: string }>((resolve) => {
              w!.onmessage = (event: MessageEvent<{ error?: string }>) => resolve(event.data);
              w!.postMessage(message);
            });
        if (reply.error) throw new Error(reply.error);
        (loading ? loadTimes : searchTimes).push(performance.now() - started);
      }
      worker?.terminate();
      return { loadTimes, searchTimes };
    },
    { make, loads, questions },
  );
}

/**
 * Installs the offline book from the about page of the server at `base` (the build in `dist`);
 * then times loading it and searching it: in the app's search worker as it is, and, with the CPU
 * slowed `rate`× as on a mid-range phone, the worker's code on the page's main thread.
 */
export async function measureOffline(base: string, dist: string, questions: string[], options: { loads?: number; rate?: number } = {}): Promise<OfflineFigures> {
  const { loads = 5, rate = 4 } = options;
  const offer = (await (await fetch(`${base}/api/offline-pack`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })).json()) as { url: string; stored_size: number };
  const transferBytes = await transferred(`${base}/api${offer.url}`, 'gzip, deflate, br, zstd');
  const worker = (await readdir(path.join(dist, 'assets'))).find((name) => /^search-worker-.*\.js$/.test(name));
  if (!worker) throw new Error(`no search worker in ${dist}/assets: run npm run build`);
  const copy = await workerOnMainThread();

  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    // The page's CSP is left aside only so that the worker's copy can be added to it (the e2e tests keep it).
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${base}/about`);
    await page.getByRole('button', { name: /^Make the book available offline/ }).click();
    await page.getByText('The book is available offline on this device').waitFor({ timeout: 120_000 });

    const inWorker = await timeIn(page, `/assets/${worker}`, loads, questions);
    await page.addScriptTag({ content: copy });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const slowed = await timeIn(page, 'copy', loads, questions);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    return {
      transferBytes,
      storedBytes: offer.stored_size,
      loadMs: quantile(slowed.loadTimes, 0.5),
      searchP75Ms: quantile(slowed.searchTimes, 0.75),
      workerLoadMs: quantile(inWorker.loadTimes, 0.5),
      workerSearchP75Ms: quantile(inWorker.searchTimes, 0.75),
      searches: questions.length,
    };
  } finally {
    await browser.close();
  }
}
