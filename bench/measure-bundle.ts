import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const gz = async (file: string) => gzipSync(await readFile(file), { level: 9 }).length;

/**
 * The PWA's initial JavaScript and CSS (what index.html loads or preloads), gzipped, and the
 * largest chunk loaded later (a route).
 */
export async function measureBundle(dist: string) {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const initial = new Set(
    [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!),
  );
  let initialJs = 0;
  let initialCss = 0;
  for (const file of initial) {
    const size = await gz(path.join(dist, file));
    if (file.endsWith('.css')) initialCss += size;
    else initialJs += size;
  }
  let largest = { file: '', size: 0 };
  for (const name of await readdir(path.join(dist, 'assets'))) {
    const file = `assets/${name}`;
    if (!name.endsWith('.js') || initial.has(file)) continue;
    const size = await gz(path.join(dist, file));
    if (size > largest.size) largest = { file: name, size };
  }
  return { initialJs, initialCss, initialFiles: initial.size, largestRoute: largest };
}
