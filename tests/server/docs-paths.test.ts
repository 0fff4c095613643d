// Starts no server, store or engine: it does not wait for the run's fixtures.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
/** The docs that map the tree: what they name must be there. */
const DOCS = ['docs/architecture.md', 'docs/client.md', 'docs/development.md'];
/** A backticked word is a repository path when it starts with one of these folders. */
const TOP_FOLDERS = ['server', 'src', 'sw', 'common', 'contract', 'corpus', 'scripts', 'bench', 'tests', 'docs', 'deploy'];

/**
 * The repository paths a Markdown text names in backticks: each word of a backticked span that
 * starts with a known top folder and a slash (`server/app.ts`, `time npx vitest run tests/x.ts`),
 * up to a placeholder such as `<hash>`.
 */
function repoPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  const words = spans.flatMap((span) => span.split(/\s+/));
  const paths = words
    .filter((word) => /^[\w.-]+\/\S*$/.test(word) && TOP_FOLDERS.includes(word.split('/')[0]!))
    .map((word) => word.replace(/\/?<.*$/, '').replace(/\/$/, ''));
  return [...new Set(paths)];
}

/** The tree: every file git tracks or would track (new, not ignored), and every folder above one. */
function tree(): Set<string> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\n')
    .filter(Boolean)
    // A file deleted but not yet committed is not there.
    .filter((file) => existsSync(path.join(REPO, file)));
  const entries = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) entries.add(parts.slice(0, i).join('/'));
  }
  return entries;
}

const folders = (dir: string) =>
  readdirSync(path.join(REPO, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const read = (doc: string) => readFileSync(path.join(REPO, doc), 'utf8');

/** The first column of the Markdown table whose header's first cell is `first`. */
function tableKeys(markdown: string, first: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  if (start < 0) return [];
  const keys: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    keys.push(line.split('|')[1]!.trim().replace(/`/g, ''));
  }
  return keys;
}

describe('the docs that map the tree', () => {
  it('finds the repository paths a text names, and only those', () => {
    const text = 'See `server/app.ts`, `src/lib/` and `POST /api/save`; run `time npx vitest run tests/client/count.test.ts`; kept in `node_modules/.cache/x` and `tests/cache/<hash>`; `arena/draw.ts` is relative.';
    expect(repoPaths(text)).toEqual(['server/app.ts', 'src/lib', 'tests/client/count.test.ts', 'tests/cache']);
  });

  it.each(DOCS)('%s names only paths that are in the tree', (doc) => {
    const paths = repoPaths(read(doc));
    expect(paths.length).toBeGreaterThan(3);
    const entries = tree();
    expect(paths.filter((named) => !entries.has(named))).toEqual([]);
  });

  it("lists every server module in the module map and the folders, and no module that is not there", () => {
    const architecture = read('docs/architecture.md');
    const modules = folders('server/modules');
    expect(tableKeys(architecture, 'module').sort()).toEqual(modules);
    for (const module of modules) expect(architecture).toMatch(new RegExp(`^ {4}${module}/ +\\S`, 'm'));
  });

  it('lists every part of the platform in its table, with what it owns, and no part that is not there', () => {
    const parts = [...folders('server/platform').map((folder) => `${folder}/`), 'log.ts'].sort();
    expect(tableKeys(read('docs/architecture.md'), 'platform').sort()).toEqual(parts);
  });

  it("lists every feature of the client in docs/client.md's folders", () => {
    const client = read('docs/client.md');
    for (const feature of folders('src/features')) expect(client).toMatch(new RegExp(`^ {4}${feature}/ +\\S`, 'm'));
  });
});
