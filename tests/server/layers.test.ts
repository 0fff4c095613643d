// Starts no server, store or engine: it does not wait for the run's fixtures.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/start-command.ts';

/**
 * The layer map (docs/architecture.md, "Layers") is enforced by `npm run lint`. Each case lints one
 * import as if written in a file of the project (the file need not exist; what it imports does),
 * with the project's own ESLint configuration.
 */
const eslint = new ESLint({ cwd: REPO_ROOT });

async function ruleHits(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, filePath) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

const LAYER_RULE = 'import-x/no-restricted-paths';
const CYCLE_RULE = 'import-x/no-cycle';

describe('the layer map, enforced by the lint', () => {
  it('refuses an import from a higher layer: the platform reaching up into a module', async () => {
    expect(await ruleHits('server/platform/store/layer-probe.ts', "export { THROTTLE_WINDOW_MS } from '../../modules/auth/index.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('server/platform/http/layer-probe.ts', "export { ModelUnavailableError } from '../../modules/search/retrieval-engine.ts';\n")).toContain(LAYER_RULE);
    // A type-only import is a dependency all the same.
    expect(await ruleHits('server/platform/limits/layer-probe.ts', "export type { LsaOptions } from '../../modules/search/index.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('server/modules/arena/layer-probe.ts', "export { buildApp } from '../../app.ts';\n")).toContain(LAYER_RULE);
  });

  it("refuses an import of a module's insides from another module, from app.ts and from a script", async () => {
    expect(await ruleHits('server/modules/arena/layer-probe.ts', "export { passwordProblem } from '../auth/passwords.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('server/modules/offline-pack/layer-probe.ts', "export type { RetrievalEngine } from '../search/retrieval-engine.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('server/app.ts', "export { authRoutes } from './modules/auth/auth-routes.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('server/cli/layer-probe.ts', "export { runUserCommand } from '../modules/admin/user-commands.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('scripts/layer-probe.ts', "export { loadCorpus } from '../server/modules/book/load-corpus.ts';\n")).toContain(LAYER_RULE);
  });

  it("lets a module use another through its index.ts, and the tests reach a module's insides", async () => {
    expect(await ruleHits('server/modules/arena/layer-probe.ts', "export { passwordProblem } from '../auth/index.ts';\n")).toEqual([]);
    expect(await ruleHits('server/app.ts', "export { authRoutes } from './modules/auth/index.ts';\n")).toEqual([]);
    expect(await ruleHits('server/modules/auth/layer-probe.ts', "export { passwordProblem } from './passwords.ts';\n")).toEqual([]);
    expect(await ruleHits('tests/server/layer-probe.ts', "export { passwordProblem } from '../../server/modules/auth/passwords.ts';\n")).toEqual([]);
  });

  it('lets a layer import from those below it', async () => {
    expect(await ruleHits('server/modules/search/layer-probe.ts', "export { LruCache } from '../../platform/caches/lru-cache.ts';\n")).toEqual([]);
    expect(await ruleHits('server/modules/health/layer-probe.ts', "export { EARLY_INPUT_SCRIPT } from '../../../contract/early-input-script.ts';\n")).toEqual([]);
    expect(await ruleHits('scripts/layer-probe.ts', "export { loadConfig } from '../server/platform/config/config.ts';\n")).toEqual([]);
    expect(await ruleHits('tests/server/layer-probe.ts', "export { launchBrowser } from '../../scripts/chromium.ts';\n")).toEqual([]);
  });

  it('keeps the server out of the client and the client out of the server, and build tools out of the tests', async () => {
    expect(await ruleHits('server/platform/http/layer-probe.ts', "export { passageIdOf } from '../../../src/features/reading/passage-id.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('server/modules/arena/layer-probe.ts', "export { passageIdOf } from '../../../src/features/reading/passage-id.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('src/app/layer-probe.ts', "export { loadConfig } from '../../server/platform/config/config.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('sw/layer-probe.ts', "export { startCommand } from '../scripts/start-command.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('contract/layer-probe.ts', "export { MAX_CLOCK_SKEW_SECONDS } from '../server/modules/auth/index.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('bench/layer-probe.ts', "export { screenshot } from '../tests/e2e/browser.ts';\n")).toContain(LAYER_RULE);
  });

  it('keeps common/ (code the server and the browser both run) below both, and free of Node', async () => {
    expect(await ruleHits('common/search/layer-probe.ts', "export { loadConfig } from '../../server/platform/config/config.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('common/search/layer-probe.ts', "export { searchBook } from '../../src/features/offline/search-book.ts';\n")).toContain(LAYER_RULE);
    expect(await ruleHits('common/search/layer-probe.ts', "import { readFile } from 'node:fs/promises';\nexport const read = readFile;\n")).toContain('no-restricted-imports');
    expect(await ruleHits('common/search/layer-probe.ts', "export type { SearchResult } from '../../contract/api-schemas.ts';\n")).toEqual([]);
    expect(await ruleHits('server/modules/search/layer-probe.ts', "export { interleave } from '../../../common/search/interleave.ts';\n")).toEqual([]);
    expect(await ruleHits('src/features/offline/layer-probe.ts', "export { openPack } from '../../../common/offline/pack-search.ts';\n")).toEqual([]);
  });

  it('refuses an import circle', async () => {
    // Two files on disk that import each other (the rule works out circles from the files themselves).
    const folder = await mkdtemp(path.join(REPO_ROOT, 'tests/server/cycle-probe-'));
    try {
      const first = "import { second } from './second.ts';\nexport const first = () => second();\n";
      await writeFile(path.join(folder, 'first.ts'), first);
      await writeFile(path.join(folder, 'second.ts'), "import { first } from './first.ts';\nexport const second = () => first();\n");
      expect(await ruleHits(path.relative(REPO_ROOT, path.join(folder, 'first.ts')), first)).toContain(CYCLE_RULE);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses a server or script file of more than 300 lines: one job per module, data in data files', async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';
    expect(await ruleHits('server/modules/search/size-probe.ts', lines(301))).toContain('max-lines');
    expect(await ruleHits('scripts/size-probe.ts', lines(301))).toContain('max-lines');
    expect(await ruleHits('server/modules/search/size-probe.ts', lines(300))).toEqual([]);
  });

  it('places every part of server/ in the map, and walls off every module, so that a new folder cannot slip past it', async () => {
    const config = (await eslint.calculateConfigForFile(path.join(REPO_ROOT, 'server/main.ts'))) as {
      rules: Record<string, [unknown, { zones: Array<{ target: string }> }]>;
    };
    const targets = new Set(config.rules[LAYER_RULE]![1].zones.flatMap((zone) => [zone.target].flat()));
    const parts = readdirSync(path.join(REPO_ROOT, 'server'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || /\.(ts|mts|mjs)$/.test(entry.name))
      .map((entry) => `./server/${entry.name}`);
    expect(parts.filter((part) => !targets.has(part))).toEqual([]);
    const modules = readdirSync(path.join(REPO_ROOT, 'server/modules'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const walled = new Set(config.rules[LAYER_RULE]![1].zones.flatMap((zone) => [(zone as { from?: string | string[] }).from ?? []].flat()));
    expect(modules.map((entry) => `./server/modules/${entry.name}`).filter((module) => !walled.has(module))).toEqual([]);
  });
});
