import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The build (scripts/prerender.ts) writes a public route's pre-rendered page to dist/prerendered/<name>.html. */
export const PRERENDERED_DIR = 'prerendered';

export function prerenderedFileName(routePath: string): string {
  return `${routePath === '/' ? 'index' : routePath.slice(1)}.html`;
}

/**
 * Route path → file under the static root, for every pre-rendered page the build wrote, those in
 * sub-folders too (`read/ch4.html` is `/read/ch4`).
 */
export function findPrerenderedPages(staticDir: string): Map<string, string> {
  let names: string[];
  try {
    names = readdirSync(path.join(staticDir, PRERENDERED_DIR), { recursive: true, encoding: 'utf8' })
      .map((name) => name.split(path.sep).join('/'))
      .filter((name) => name.endsWith('.html'));
  } catch {
    return new Map();
  }
  return new Map(names.map((name) => [name === 'index.html' ? '/' : `/${name.slice(0, -'.html'.length)}`, `${PRERENDERED_DIR}/${name}`]));
}
