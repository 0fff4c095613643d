/**
 * Renders the app icons (public/icons) from one drawing, in Debian's Chromium:
 * npm run icons. The maskable icon keeps its mark inside the central 80% safe zone.
 */
import { writeFile } from 'node:fs/promises';
import { launchBrowser } from './chromium.ts';

const mark = (scale: number) => `
  <g transform="translate(32 32) scale(${scale}) translate(-32 -32)">
    <path d="M32 10 L38 26 L54 32 L38 38 L32 54 L26 38 L10 32 L26 26 Z" fill="#DCEFF0"/>
    <circle cx="32" cy="32" r="6" fill="#0A6E75"/>
  </g>`;

const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0A6E75"/>${mark(1)}</svg>`;
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#0A6E75"/>${mark(0.72)}</svg>`;

const icons: Array<[string, string, number]> = [
  ['public/icons/icon-192.png', rounded, 192],
  ['public/icons/icon-512.png', rounded, 512],
  ['public/icons/maskable-512.png', maskable, 512],
  ['public/icons/apple-touch-icon.png', maskable, 180],
];

const browser = await launchBrowser();
for (const [file, svg, size] of icons) {
  const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  await writeFile(file, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
  await page.close();
  console.log(`${file} (${size}×${size})`);
}
await browser.close();
