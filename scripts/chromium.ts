import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, as the machine notes prescribe; never a downloaded browser. */
export function chromiumPath(): string {
  const found = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser || true']).toString().trim();
  if (!found) throw new Error('Chromium is not installed: apt-get install -y chromium (.ci/run does this)');
  return found;
}

/** The flags this machine's notes prescribe: no network side traffic, no sandbox as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}
