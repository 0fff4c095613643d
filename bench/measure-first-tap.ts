import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A control to tap as soon as it shows, and how to tell that the tap took effect. */
export interface TapProbe {
  path: string;
  control: string;
  tap(page: Page): Promise<void>;
  effect(page: Page): Promise<unknown>;
}

export const TAP_PROBES: TapProbe[] = [
  {
    path: '/',
    control: 'Begin Your Journey',
    tap: (page) => page.getByRole('link', { name: 'Begin Your Journey' }).click(),
    effect: (page) => page.waitForURL('**/login', { waitUntil: 'commit' }),
  },
  ...['/', '/login', '/about'].map((path) => ({
    path,
    control: 'the theme toggle',
    tap: (page: Page) => page.getByTestId('theme-toggle').click(),
    effect: (page: Page) => page.waitForSelector('html[data-theme="dark"]', { state: 'attached' }),
  })),
];

/**
 * With the CPU slowed 4× as on a mid-range phone: the time from navigation to a tap's effect, the
 * tap made as soon as its control shows. Median of `runs` first visits per probe.
 */
export async function measureFirstTap(base: string, probes: TapProbe[] = TAP_PROBES, runs = 3): Promise<Array<{ probe: TapProbe; ms: number }>> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const out: Array<{ probe: TapProbe; ms: number }> = [];
    for (const probe of probes) {
      const samples: number[] = [];
      for (let run = 0; run < runs; run++) {
        const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 412, height: 823 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        const started = performance.now();
        await page.goto(`${base}${probe.path}`, { waitUntil: 'commit' });
        await probe.tap(page);
        await probe.effect(page);
        samples.push(performance.now() - started);
        await context.close();
      }
      out.push({ probe, ms: median(samples) });
    }
    return out;
  } finally {
    await browser.close();
  }
}
